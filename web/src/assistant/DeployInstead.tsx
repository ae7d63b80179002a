// "Deploy r18 instead": a waiting deploy pinned to a revision that is no
// longer its document's newest keeps its pin (it runs as shown); beside it,
// the operator may choose the newest explicitly — as the editor's Deploy
// does (a protected environment's confirmation, showing that revision) —
// after which this proposal is rejected, so nothing deploys the older one
// behind them.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { ProposalResponse } from '../../../src/wire/proposal';
import { runTool } from '../api/client';
import { useProject } from '../api/queries';
import { queryKeys, readAgain } from '../api/queryKeys';
import { openedRequest, RequestOpened } from '../change-requests/opened';
import { DeployDialog } from '../editor/DeployDialog';
import { ActionButton } from '../ui/ActionButton';
import type { Permission } from '../ui/permission';

interface Props {
  proposal: ProposalResponse;
  newer: number;
  permission: Permission;
  busy: boolean;
  onReject: () => void;
}

export function DeployInstead({ proposal, newer, permission, busy, onReject }: Props) {
  const project = proposal.project ?? '';
  const path = proposal.rows.find((r) => r.k === 'path')?.v ?? '';
  const here = useProject(project).data?.environments.find((e) => e.name === proposal.environment);
  const approvals = here?.approvals_required ?? 1;
  const [asking, setAsking] = useState(false);
  const queries = useQueryClient();
  const deploy = useMutation({
    mutationFn: (reason: string | null) =>
      runTool('deploy', { project, environment: proposal.environment, path, revision: newer, ...(reason ? { reason } : {}) }),
    onSuccess: onReject,
    onSettled: () => readAgain(queries, [queryKeys.documents(), queryKeys.deployments(), queryKeys.project()]),
  });
  const opened = deploy.data && openedRequest(deploy.data);
  return (
    <div className="deploy-instead">
      <p className="muted small">
        {path} has r{newer} now; this proposal deploys the revision it showed.
      </p>
      <ActionButton permission={permission} disabled={busy || deploy.isPending} aria-haspopup="dialog" onClick={() => (here?.protected === false ? deploy.mutate(null) : setAsking(true))}>
        Deploy r{newer} instead
      </ActionButton>
      {deploy.error && (
        <p className="error" role="alert">
          {deploy.error.message}
        </p>
      )}
      {opened && <RequestOpened request={opened} />}
      <DeployDialog
        project={project}
        environment={proposal.environment}
        path={path}
        revision={newer}
        approvals={approvals}
        open={asking}
        onClose={() => setAsking(false)}
        onConfirm={(reason) => {
          setAsking(false);
          deploy.mutate(reason);
        }}
      />
    </div>
  );
}
