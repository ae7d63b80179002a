// `/change-requests` and `/projects/{p}/change-requests`: the change requests
// waiting for me, asked by me, or all (of the project, on its page), newest
// first, optionally of one status; the choice lives in the address. A card
// whose decision the server refused stays, with the sentence, though the
// list no longer holds it (it went stale, someone else decided it).
import { useState } from 'react';
import { useSearchParams } from 'wouter';
import { CHANGE_REQUEST_STATUSES, type ChangeRequestStatus } from '../../../src/wire/change-request';
import { useWhoami } from '../api/queries';
import { Failure } from '../pages/Failure';
import { useConcepts } from '../screen';
import { RequestCard } from './RequestCard';
import { useChangeRequest, useChangeRequests, type Show } from './queries';
import { ShowLinks } from './ShowLinks';

const EMPTY: Record<Show, string> = {
  'for-me': 'Nothing waits for your approval.',
  'by-me': 'You have asked for no change here.',
  all: 'No change requests yet.',
};

export default function ChangeRequestsPage({ project }: { project?: string | undefined }) {
  useConcepts('Protected environment', 'Deployment', 'Proposal');
  const [search, setSearch] = useSearchParams();
  const asked = search.get('show');
  const show: Show = asked === 'by-me' || asked === 'all' ? asked : 'for-me';
  const status = CHANGE_REQUEST_STATUSES.find((s) => s === search.get('status'));
  const requests = useChangeRequests({ show, project, status });
  const me = useWhoami().data?.operator;
  // Refusals by request id, kept while the page is open.
  const [refused, setRefused] = useState<ReadonlyMap<string, string>>(new Map());
  const listed = new Set(requests.data?.map((r) => r.id));
  const kept = [...refused].filter(([id]) => !listed.has(id));
  const refuse = (id: string) => (message: string) => setRefused((was) => new Map(was).set(id, message));

  function pickStatus(value: string) {
    const next = new URLSearchParams(search);
    if (value) next.set('status', value);
    else next.delete('status');
    setSearch(next, { replace: true });
  }

  return (
    <section className="change-requests" aria-labelledby="title">
      <h1 id="title">Change requests{project ? '' : ' in all your projects'}</h1>
      <div className="request-filters">
        <ShowLinks show={show} search={search} project={project} />
        <label htmlFor="request-status" className="visually-hidden">
          Status
        </label>
        <select id="request-status" value={status ?? ''} onChange={(e) => pickStatus(e.target.value)}>
          <option value="">Any status</option>
          {CHANGE_REQUEST_STATUSES.map((s: ChangeRequestStatus) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
      </div>
      {requests.error && <Failure error={requests.error} />}
      {kept.map(([id, message]) => (
        <KeptRequest key={id} id={id} me={me} refusal={message} />
      ))}
      {requests.data?.length === 0 && kept.length === 0 && <p className="muted">{status ? `No ${status} change requests here.` : EMPTY[show]}</p>}
      {requests.data?.map((request) => (
        <RequestCard key={request.id} request={request} me={me} linked refusal={refused.get(request.id) ?? null} onRefused={refuse(request.id)} />
      ))}
    </section>
  );
}

/** A request whose decision was refused after the list let it go: read on its own, with the refusal. */
function KeptRequest({ id, me, refusal }: { id: string; me: string | undefined; refusal: string }) {
  const request = useChangeRequest(id).data;
  return request ? <RequestCard request={request} me={me} linked refusal={refusal} /> : null;
}
