// One change request: what it would do where, who asked and why, what it
// changes, the checker's verdict, its status in a sentence with the comment
// and the result; Approve and Decline while it waits — Approve refused, with
// the server's sentence beside it, when the caller may not approve it (a
// stale one says what moved). A decision the server refused is said here,
// where it was clicked, also once the lists no longer hold the request.
import { useState } from 'react';
import { Link, useLocation } from 'wouter';
import { ApiError } from '../api/client';
import { queryKeys } from '../api/queryKeys';
import type { ChangeRequestResponse } from '../../../src/wire/change-request';
import { Failure } from '../pages/Failure';
import { ActionButton } from '../ui/ActionButton';
import { shortTime } from '../ui/time';
import { useAction } from '../ui/useAction';
import { DecideDialog, type Decision } from './DecideDialog';
import { decide, requestHref } from './queries';
import { RequestChange } from './RequestChange';
import { requestTitle } from './title';
import { Verdict } from './Verdict';

interface Props {
  request: ChangeRequestResponse;
  /** The signed-in operator: the one who asked withdraws rather than declines. */
  me: string | undefined;
  /** In a list, the heading links to the request's own page. */
  linked?: boolean;
  /** A refusal of this card's decision kept by its page (the card may have been drawn again since). */
  refusal?: string | null;
  /** Told the sentence when the server refuses a decision (409), so the page keeps it in view. */
  onRefused?: (message: string) => void;
}

export function RequestCard({ request, me, linked = false, refusal = null, onRefused }: Props) {
  const [deciding, setDeciding] = useState<Decision | null>(null);
  const [, navigate] = useLocation();
  const action = useAction({
    // A refusal is told before the lists are read again (which may let this card go), so the page keeps it.
    mutationFn: ({ decision, comment }: { decision: Decision; comment: string }) =>
      decide(request, decision, comment).catch((error: unknown) => {
        if (error instanceof ApiError && error.status === 409) onRefused?.(error.message);
        throw error;
      }),
    // A list of what waits drops a decided request: its own page shows how it ended.
    onSuccess: () => {
      if (linked) navigate(requestHref(request.project, request.id));
    },
    changes: [queryKeys.changeRequests(), queryKeys.changeRequest()],
  });
  const titleId = `request-${request.id}`;
  const title = requestTitle(request);
  const pending = request.status === 'pending';
  const mine = request.requested_by === me;
  const ran = request.status === 'approved' ? resultOf(request.result) : '';

  const run = (decision: Decision, comment: string) => {
    setDeciding(null);
    action.mutate({ decision, comment });
  };

  return (
    <article className={`card request ${request.status}`} aria-labelledby={titleId}>
      <header>
        <h3 id={titleId}>{linked ? <Link href={requestHref(request.project, request.id)}>{title}</Link> : title}</h3>
        <span className={`status ${request.status}`}>{request.status}</span>
        {request.stale && request.status === 'pending' && <span className="status stale">stale</span>}
      </header>
      <p className="request-sentence">{request.sentence}</p>
      <dl className="rows">
        <div>
          <dt>asked by</dt>
          <dd>
            {request.requested_by} <span className="muted">via {request.via} · {shortTime(request.created_at)}</span>
          </dd>
        </div>
        <div>
          <dt>why</dt>
          <dd className={request.reason ? 'reason' : 'muted'}>{request.reason ?? 'no reason given'}</dd>
        </div>
        {request.thread && (
          <div>
            <dt>asked in</dt>
            <dd>a conversation{request.proposal ? ', whose proposal waits on this request' : ''}</dd>
          </div>
        )}
        {request.approvals.length > 0 && (
          <div>
            <dt>approved by</dt>
            <dd>
              <ul className="approvals">
                {request.approvals.map((a) => (
                  <li key={`${a.by}-${a.at}`} className={a.dismissed_because ? 'dismissed' : undefined}>
                    {a.by} <span className="muted">{shortTime(a.at)}</span>
                    {a.comment && <span className="reason"> “{a.comment}”</span>}
                    {a.dismissed_because && <span className="muted"> — dismissed: {a.dismissed_because}</span>}
                  </li>
                ))}
              </ul>
            </dd>
          </div>
        )}
        {request.decided_by && (
          <div>
            <dt>decided by</dt>
            <dd>
              {request.decided_by} {request.decided_at && <span className="muted">{shortTime(request.decided_at)}</span>}
            </dd>
          </div>
        )}
        {request.comment && (
          <div>
            <dt>comment</dt>
            <dd className="reason">{request.comment}</dd>
          </div>
        )}
        {ran && (
          <div>
            <dt>result</dt>
            <dd>{ran}</dd>
          </div>
        )}
        {pending && (
          <div>
            <dt>expires</dt>
            <dd>{shortTime(request.expires_at)}</dd>
          </div>
        )}
      </dl>
      <div className="request-change">
        <RequestChange request={request} />
        <Verdict request={request} />
      </div>
      {action.error ? (
        <Failure error={action.error} />
      ) : (
        refusal && (
          <p className="error" role="alert">
            {refusal}
          </p>
        )
      )}
      {pending && (
        <footer>
          <ActionButton
            primary
            permission={{ allowed: request.can_approve, reason: request.refusal ?? '' }}
            disabled={action.isPending}
            aria-haspopup="dialog"
            onClick={() => setDeciding('approve')}
          >
            Approve
          </ActionButton>
          {request.can_decline && (
            <button type="button" disabled={action.isPending} aria-haspopup="dialog" onClick={() => setDeciding('decline')}>
              {mine ? 'Withdraw' : 'Decline'}
            </button>
          )}
          {/* The button carries the sentence as its description; this is the same words for the eye. */}
          {!request.can_approve && request.refusal && (
            <span className="muted small refusal" aria-hidden="true">
              {request.refusal}
            </span>
          )}
        </footer>
      )}
      {deciding && (
        <DecideDialog request={request} decision={deciding} withdrawing={mine} onDecide={(comment) => run(deciding, comment)} onClose={() => setDeciding(null)} />
      )}
    </article>
  );
}

/** What an approved change answered, in short ("deployment 4, revision 3"), leaving out where it ran. */
function resultOf(result: ChangeRequestResponse['result']): string {
  return Object.entries(result ?? {})
    .filter(([k, v]) => k !== 'project' && k !== 'environment' && ['string', 'number', 'boolean'].includes(typeof v))
    .map(([k, v]) => `${k.replaceAll('_', ' ')} ${String(v)}`)
    .join(', ');
}
