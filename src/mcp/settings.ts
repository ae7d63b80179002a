// What an MCP connection is allowed and where it points, whichever transport
// carries it: `ops mcp`'s flags and `/mcp`'s X-Aion-* headers both become this.

export interface ConnectionSettings {
  /** Write tools are hidden from the list and refused by the executor. */
  readOnly: boolean;
  /** Only these tools exist on this connection; null: every tool. */
  only: ReadonlySet<string> | null;
  /** Fills a `project` the model leaves out. */
  project: string | null;
  /** Fills an `environment` the model leaves out. */
  environment: string | null;
  /** The one environment a call may name; the server refuses the others. null: no fence. */
  onlyEnvironment: string | null;
}


/** `a, B,c` → {a, b, c} (tool names are lower case, and compare so); nothing named → null (every tool). */
export function toolList(text: string | null | undefined): ReadonlySet<string> | null {
  const names = (text ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== '');
  return names.length === 0 ? null : new Set(names);
}
