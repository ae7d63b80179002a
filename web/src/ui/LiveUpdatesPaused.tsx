// Where no stream can be had (a proxy that holds them back, a server out of
// reach), the console reads again every few seconds and says so in one line.
import { useLiveUpdates } from '../api/topics';
import { POLL_MS } from '../api/streamKeeper';

export function LiveUpdatesPaused() {
  if (useLiveUpdates()) return null;
  return (
    <p className="live-paused" role="status">
      Live updates paused — the console reads again every {POLL_MS / 1000} s until the connection is back.
    </p>
  );
}
