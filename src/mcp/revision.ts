// Which MCP revision a request to `/mcp` may speak, read without loading an
// SDK. A 2026-07-28 request claims its era in a per-request `_meta` envelope
// (or names that revision in MCP-Protocol-Version); a request with neither is
// 2025-era traffic by the split SDK's own rules, so the hot path of 2025
// clients neither loads that SDK (about 700 KB) nor classifies anything. What
// may be modern is classified by the SDK itself (modern-http.ts).

export const PROTOCOL_VERSION_META_KEY = 'io.modelcontextprotocol/protocolVersion';
const FIRST_MODERN_REVISION = '2026-07-28';
/** The revisions of the stateless era Aion serves (what server/discover lists). */
export const MODERN_REVISIONS: readonly string[] = [FIRST_MODERN_REVISION];

/** Whether an HTTP request to the MCP endpoint may be of the 2026-07-28 era (false: certainly not). */
export function mayBeModern(method: string, protocolVersionHeader: string | string[] | undefined, body: unknown): boolean {
  if (method !== 'POST') return false;
  const named = Array.isArray(protocolVersionHeader) ? protocolVersionHeader.join(',') : protocolVersionHeader;
  // Revision names are dates: a later one sorts after.
  if (named !== undefined && named.trim() >= FIRST_MODERN_REVISION) return true;
  return (Array.isArray(body) ? body : [body]).some(claimsEnvelope);
}

function claimsEnvelope(message: unknown): boolean {
  if (typeof message !== 'object' || message === null) return false;
  const { params } = message as { params?: unknown };
  if (typeof params !== 'object' || params === null) return false;
  const { _meta: meta } = params as { _meta?: unknown };
  return typeof meta === 'object' && meta !== null && Object.hasOwn(meta, PROTOCOL_VERSION_META_KEY);
}
