// Says so while the server cannot be reached (a request or the change stream
// failed without an answer), and asks the server once a second meanwhile so
// the banner goes as soon as it is back, without waiting for the streams'
// longer pauses between attempts.
import { useEffect } from 'react';
import { useServerReachable, watched } from '../api/connection';

const PROBE_EVERY_MS = 1000;

export function ConnectionBanner() {
  const reachable = useServerReachable();
  useEffect(() => {
    if (reachable) return;
    const timer = setInterval(() => void watched(fetch('/healthz', { cache: 'no-store' })).catch(() => undefined), PROBE_EVERY_MS);
    return () => clearInterval(timer);
  }, [reachable]);
  return (
    <div className="connection-banner" role="status" aria-label="Connection">
      {!reachable && (
        <p>
          <span className="spinner" aria-hidden="true" /> <strong>Reconnecting…</strong> — your unsaved text is kept.
        </p>
      )}
    </div>
  );
}
