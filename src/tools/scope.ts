// A tool's scope fields (`project`, `environment`): what the caller's scope
// fills when the input leaves them out, what is still missing, and the schema
// a client reads, which requires what nothing fills.
import type { Invocation } from './invocation.js';
import type { Tool } from './types.js';

/** The input with a `project` or `environment` it leaves out filled from the caller's scope. */
export function fillScope(tool: Tool, invocation: Invocation, input: Record<string, unknown>): Record<string, unknown> {
  const filled = { ...input };
  const scope = invocation.scope ?? {};
  if (tool.scope !== 'none' && filled.project === undefined && scope.project) filled.project = scope.project;
  if (tool.scope === 'environment' && filled.environment === undefined && scope.environment) {
    filled.environment = scope.environment;
  }
  return filled;
}

/**
 * The input schema a client reads: a scope field the tool needs and the
 * caller's scope does not fill is required, so the schema and the executor's
 * "missing" refusal say the same.
 */
export function publishedSchema(tool: Tool, fills: { project?: string | null; environment?: string | null }): Record<string, unknown> {
  const needed = [
    ...(tool.scope !== 'none' && !fills.project ? ['project'] : []),
    ...(tool.scope === 'environment' && !fills.environment ? ['environment'] : []),
  ];
  const declared = Array.isArray(tool.input_schema.required) ? (tool.input_schema.required as string[]) : [];
  const missing = needed.filter((field) => !declared.includes(field));
  return missing.length === 0 ? tool.input_schema : { ...tool.input_schema, required: [...missing, ...declared] };
}

/** A scope field the tool needs that neither the input nor the caller's scope gave. */
export function missingScope(tool: Tool, input: Record<string, unknown>): string | null {
  if (tool.scope === 'none') return null;
  if (input.project === undefined) return 'input.project is missing; name the project (nothing filled it in)';
  if (tool.scope === 'environment' && input.environment === undefined) {
    return 'input.environment is missing; name the environment (nothing filled it in)';
  }
  return null;
}
