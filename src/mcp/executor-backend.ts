// The backend of `/mcp`: the catalogue and the executor of this server, run
// in-process as the request's operator, with the connection's settings as the
// invocation's scope and restrictions, so the executor enforces them.
import type { Operator } from '../access/operators.js';
import type { BeforeWrite, Executor } from '../tools/executor.js';
import type { ToolBackend } from './backend.js';
import type { ConnectionSettings } from './settings.js';

/** `beforeWrite`: the HTTP request's check, asked first in a write's transaction (a client gone, a request too old). */
export function executorBackend(executor: Executor, operator: Operator, settings: ConnectionSettings, beforeWrite?: BeforeWrite): ToolBackend {
  const scope = { project: settings.project, environment: settings.environment };
  const restrictions = { readOnly: settings.readOnly, only: settings.only, onlyEnvironment: settings.onlyEnvironment };
  return {
    listTools: () => executor.describe(operator, scope, restrictions),
    callTool: async (name, input) => {
      const { tool, is_error, result } = await executor.run(
        { operator, via: 'mcp', scope, ...restrictions, ...(beforeWrite ? { beforeWrite } : {}) },
        name,
        input,
      );
      return { tool, is_error, result };
    },
  };
}
