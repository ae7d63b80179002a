// The backend of `/mcp` for a session credential: one conversation's tools
// (its three, and the public ones, whose writes become proposals on the
// thread), run as the thread's operator, within the connection's restrictions.
import type { Operator } from '../access/operators.js';
import type { Assistant } from '../assistant/assistant.js';
import type { ToolBackend } from './backend.js';
import type { ConnectionSettings } from './settings.js';

export function conversationBackend(assistant: Assistant, operator: Operator, threadId: string, settings: ConnectionSettings): ToolBackend {
  const restrictions = { readOnly: settings.readOnly, only: settings.only };
  return {
    listTools: () => assistant.agentTools(operator, threadId, restrictions),
    callTool: (name, input) => assistant.agentCall(operator, threadId, name, input, restrictions),
  };
}
