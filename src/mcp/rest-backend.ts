// The backend of `ops mcp`: the catalogue and the tool calls of a remote Aion
// server over REST. The REST route fills nothing in, so the proxy fills a
// `project` or `environment` the model left out from --project/--environment,
// for the tools whose schema has them. Read-only and the tool filter travel as
// headers (AionClient's), and the server's executor enforces them.
import type { ToolDescriptor } from '../tools/executor.js';
import type { AionClient } from './aion-client.js';
import type { ToolBackend } from './backend.js';
import type { ConnectionSettings } from './settings.js';

type ScopeField = 'project' | 'environment';

export function restBackend(client: AionClient, settings: ConnectionSettings): ToolBackend {
  const defaults: [ScopeField, string | null][] = [
    ['project', settings.project],
    ['environment', settings.environment],
  ];
  const filledHere = defaults.filter(([, value]) => value !== null).map(([field]) => field);
  // Which scope fields each tool takes; learnt from every listing.
  let scopeFields = new Map<string, ScopeField[]>();
  const listTools = async () => {
    const tools = await client.tools({ project: settings.project, environment: settings.environment });
    scopeFields = new Map(tools.map((tool) => [tool.name, scopeFieldsOf(tool)]));
    return tools.map((tool) => ({ ...tool, input_schema: withoutRequired(tool.input_schema, filledHere) }));
  };

  return {
    listTools,
    callTool: async (name, input) => {
      if (defaults.some(([, value]) => value !== null) && !scopeFields.has(name)) await listTools();
      const fields = scopeFields.get(name) ?? [];
      const filled = { ...input };
      for (const [field, value] of defaults) {
        if (value !== null && fields.includes(field) && filled[field] === undefined) filled[field] = value;
      }
      return client.call(name, filled);
    },
  };
}

function scopeFieldsOf(tool: ToolDescriptor): ScopeField[] {
  const properties = tool.input_schema.properties;
  if (typeof properties !== 'object' || properties === null) return [];
  return (['project', 'environment'] as const).filter((field) => field in properties);
}

/** The REST catalogue requires the scope fields a tool needs; those this proxy fills may be left out. */
function withoutRequired(schema: Record<string, unknown>, fields: ScopeField[]): Record<string, unknown> {
  if (!Array.isArray(schema.required) || fields.length === 0) return schema;
  const required = (schema.required as string[]).filter((field) => !(fields as string[]).includes(field));
  return { ...schema, required };
}
