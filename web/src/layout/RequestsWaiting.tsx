// The top bar's count of change requests waiting for me to approve, kept
// current by the tab's change-request stream; it leads to them (to their
// project's page when they are all of one project).
import { Link } from 'wouter';
import { useChangeRequests } from '../change-requests/queries';

/** The change requests the signed-in operator may approve now (a stale one cannot run, so it is not counted). */
export function useRequestsWaiting() {
  return (useChangeRequests({ show: 'for-me' }).data ?? []).filter((request) => !request.stale);
}

export function RequestsWaiting() {
  const waiting = useRequestsWaiting();
  if (waiting.length === 0) return null;
  const projects = new Set(waiting.map((request) => request.project));
  const [only] = projects;
  const href = projects.size === 1 && only ? `/projects/${encodeURIComponent(only)}/change-requests?show=for-me` : '/change-requests?show=for-me';
  return (
    <Link href={href} className="waiting">
      <span className="count">{waiting.length}</span>
      {/* The words stay in the name on a narrow screen, where only the number shows. */}
      <span className="narrow-hidden"> {waiting.length === 1 ? 'change request' : 'change requests'}</span> to approve
    </Link>
  );
}
