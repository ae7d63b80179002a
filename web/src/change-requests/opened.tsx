// A write on an environment that requires approvals does not run: the
// tool answers `ran: false` with the change request it opened. The console's
// own actions say so, with a link to the request, instead of "done".
import { Link } from 'wouter';
import type { ChangeRequestStatus } from '../../../src/wire/change-request';
import { requestHref } from './queries';
// The requests' styles ride with this module, which the first page loads (actions and proposal cards use it).
import './change-requests.css';

export interface OpenedRequest {
  project: string;
  environment: string;
  ran: false;
  change_request: { id: string; status: ChangeRequestStatus; expires_at: string };
  message: string;
}

/** The request a tool's result opened, or null when the change ran. */
export function openedRequest(result: unknown): OpenedRequest | null {
  const held = result as Partial<OpenedRequest> | null;
  return held?.ran === false && held.change_request ? (held as OpenedRequest) : null;
}

/** "A change request was opened", with a link to it. */
export function RequestOpened({ request }: { request: OpenedRequest }) {
  return (
    <>
      Not run yet: {request.environment} requires others&apos; approval, so a change request was opened.{' '}
      <Link href={requestHref(request.project, request.change_request.id)}>Open the change request</Link>
    </>
  );
}

/** The same, as a page's status line. */
export function OpenedNote({ request }: { request: OpenedRequest | null }) {
  if (!request) return null;
  return (
    <p role="status" className="request-opened">
      <RequestOpened request={request} />
    </p>
  );
}
