// `/projects/{p}/change-requests/{id}`: one change request, where a thread's
// proposal card and the console's own actions link to.
import { Link } from 'wouter';
import { useWhoami } from '../api/queries';
import { Failure } from '../pages/Failure';
import { useConcepts } from '../screen';
import { RequestCard } from './RequestCard';
import { useChangeRequest } from './queries';

export default function ChangeRequestPage({ project, id }: { project: string; id: string }) {
  useConcepts('Protected environment', 'Deployment', 'Proposal');
  const request = useChangeRequest(id);
  const me = useWhoami().data?.operator;
  return (
    <section className="change-requests" aria-labelledby="title">
      <h1 id="title">Change request</h1>
      <p className="small">
        <Link href={`/projects/${encodeURIComponent(project)}/change-requests?show=all`}>All change requests of {project}</Link>
      </p>
      {request.error && <Failure error={request.error} />}
      {request.isPending && <p className="muted">Loading…</p>}
      {request.data && <RequestCard request={request.data} me={me} />}
    </section>
  );
}
