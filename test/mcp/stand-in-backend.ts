// The backend both transport tests put behind our answers and the SDK's: a
// read and a write to list, and a tool name for each way a call can end
// (a result, a refusal, not found, bad input, a crash, a coded failure).
import type { ToolBackend } from '../../src/mcp/backend.js';
import { invalid, notFound } from '../../src/errors.js';

export const standInBackend: ToolBackend = {
  listTools: async () => [
    { name: 'whoami', description: 'Who you are.', input_schema: { properties: {} }, permission: null, tag: 'read', allowed: true },
    { name: 'set_secret', description: 'Set a secret.', input_schema: { properties: {} }, permission: 'secret:write', tag: 'write', allowed: true },
  ],
  callTool: async (name, input) => {
    if (name === 'nope') throw notFound(`no such tool: ${name}`);
    if (name === 'bad') throw invalid('bad: input.x must be a string');
    if (name === 'crash') throw new Error('the store went away');
    if (name === 'coded') throw Object.assign(new Error('coded failure'), { code: -32042, data: { why: 'test' } });
    return { tool: name, is_error: name === 'refused', result: { name, input } };
  },
};

export const standInSettings = { readOnly: false, only: null };
