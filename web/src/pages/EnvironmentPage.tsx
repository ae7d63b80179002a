// `/projects/{p}/environments/{e}`: what is live (with Rollback), the
// deployments as a timeline, the secrets by name (never a value), and the
// approvals its changes need.
// Rollback confirms first, naming the revision that comes back (and, on a
// protected environment, asking for its name); where a second operator must
// approve, it opens a change request and says so.
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'wouter';
import { runTool } from '../api/client';
import { queryKeys } from '../api/queryKeys';
import { useDocuments, useProject } from '../api/queries';
import { OpenedNote } from '../change-requests/opened';
import { RollbackDialog } from '../confirm/RollbackDialog';
import { useConcepts } from '../screen';
import { ActionButton } from '../ui/ActionButton';
import { ProtectedChip } from '../ui/ProtectedChip';
import { usePermission } from '../ui/permission';
import { shortTime } from '../ui/time';
import { useAction } from '../ui/useAction';
import { Failure } from './Failure';
import { ProtectionSection } from './ProtectionSection';
import { SecretsSection } from './SecretsSection';

/** The newest deployments the timeline shows. */
const DEPLOYMENTS_SHOWN = 50;

export function EnvironmentPage({ params }: { params: { project: string; environment: string } }) {
  useConcepts('Environment', 'Deployment', 'Rollback', 'Secret');
  const { project, environment } = params;
  const details = useProject(project).data?.environments.find((e) => e.name === environment);
  const documents = useDocuments(project);
  const deployments = useQuery({
    queryKey: queryKeys.deployments(project, environment, DEPLOYMENTS_SHOWN),
    queryFn: ({ signal }) =>
      runTool('list_deployments', { project, environment, limit: DEPLOYMENTS_SHOWN }, signal).then((r) => r.deployments),
  });
  const mayRollback = usePermission(project, environment, 'rollback');
  const rollback = useAction({
    mutationFn: ({ path, reason }: { path: string; reason: string | null }) => runTool('rollback', { project, environment, path, ...(reason ? { reason } : {}) }),
    changes: [queryKeys.deployments(), queryKeys.documents(), queryKeys.project(), queryKeys.live()],
  });
  const live = (documents.data ?? []).filter((d) => d.live[environment] !== undefined);

  const [rollingBack, setRollingBack] = useState<string | null>(null);
  // Until the project is read, the environment counts as protected.
  const asksName = details?.protected !== false;

  return (
    <section aria-labelledby="title">
      <h1 id="title">
        {environment} {details?.protected && <ProtectedChip approvals={details.approvals_required} />}
      </h1>
      <h2>Live</h2>
      {rollback.error && <Failure error={rollback.error} />}
      <OpenedNote request={rollback.opened} />
      <table className="grid">
        <thead>
          <tr>
            <th scope="col">Document</th>
            <th scope="col">Live</th>
            <th scope="col">Saved</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {live.map((d) => (
            <tr key={d.path}>
              <td>
                <Link href={`/projects/${encodeURIComponent(project)}/documents/${d.path}?environment=${encodeURIComponent(environment)}`}>
                  {d.path}
                </Link>
              </td>
              <td>r{d.live[environment]}</td>
              <td>r{d.revision}</td>
              <td>
                <ActionButton permission={mayRollback} disabled={rollback.isPending} onClick={() => setRollingBack(d.path)} aria-haspopup="dialog" aria-label="Rollback" title={`Put live again the revision of ${d.path} that was live before`}>
                  Rollback
                </ActionButton>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {live.length === 0 && <p className="muted">Nothing is live in {environment} yet.</p>}

      <h2>Deployments</h2>
      {deployments.error && <Failure error={deployments.error} />}
      <ol className="timeline">
        {deployments.data?.map((d) => (
          <li key={d.deployment}>
            <span className="when">{shortTime(d.deployed_at)}</span>
            <span>
              <strong>#{d.deployment}</strong> {d.path} r{d.revision}
              {d.rollback && <span className="chip">rollback</span>}
            </span>
            <span className="muted">
              {d.operator ?? 'someone'} via {d.via}
            </span>
          </li>
        ))}
      </ol>
      {deployments.data?.length === 0 && <p className="muted">No deployments yet.</p>}
      <SecretsSection project={project} environment={environment} />
      <ProtectionSection project={project} environment={environment} />
      {rollingBack !== null && (
        <RollbackDialog
          project={project}
          environment={environment}
          path={rollingBack}
          protectedHere={asksName}
          approvals={details?.approvals_required ?? 1}
          onClose={() => setRollingBack(null)}
          onConfirm={(reason) => {
            const path = rollingBack;
            setRollingBack(null);
            rollback.mutate({ path, reason });
          }}
        />
      )}
    </section>
  );
}
