// `ops mcp`'s stdio wire, with the one check the split SDK's serveStdio (2.4.0)
// makes on a connection's opening message only: in 2026-07-28 every request
// names its revision in its envelope, and one naming a revision the server
// does not implement MUST be answered with UnsupportedProtocolVersionError
// (supported versions, the requested one echoed). serveStdio checks the
// opening and then serves whatever a pinned connection sends, so a later
// request claiming v999 got a result; the conformance suite found it over
// stdio (test/mcp/conformance). `/mcp` has the check from the SDK's HTTP handler.
import { UnsupportedProtocolVersionError, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { MODERN_REVISIONS, PROTOCOL_VERSION_META_KEY } from './revision.js';

/** The revision a request claims in its envelope, if it claims one. */
function claimedRevision(message: JSONRPCMessage): string | undefined {
  if (!('method' in message) || !('id' in message)) return undefined;
  const meta: unknown = (message.params as { _meta?: unknown } | undefined)?._meta;
  if (typeof meta !== 'object' || meta === null) return undefined;
  const claimed: unknown = (meta as Record<string, unknown>)[PROTOCOL_VERSION_META_KEY];
  return typeof claimed === 'string' ? claimed : undefined;
}

/** The stdio transport, answering a request that claims an unsupported revision before the SDK sees it. */
export function versionGuardedStdio(): Transport {
  const wire = new StdioServerTransport();
  const guarded: Transport = {
    start: () => wire.start(),
    send: (message) => wire.send(message),
    close: () => wire.close(),
  };
  wire.onclose = () => guarded.onclose?.();
  wire.onerror = (error) => guarded.onerror?.(error);
  wire.onmessage = (message: JSONRPCMessage) => {
    const claimed = claimedRevision(message);
    if (claimed === undefined || MODERN_REVISIONS.includes(claimed) || !('id' in message)) {
      guarded.onmessage?.(message);
      return;
    }
    const error = new UnsupportedProtocolVersionError({ supported: [...MODERN_REVISIONS], requested: claimed });
    void wire.send({ jsonrpc: '2.0', id: message.id, error: { code: error.code, message: error.message, data: error.data } });
  };
  return guarded;
}
