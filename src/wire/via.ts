// How a call came: the console, the assistant, an MCP client or the REST API.
export const VIAS = ['console', 'assistant', 'mcp', 'rest'] as const;

export type Via = (typeof VIAS)[number];
