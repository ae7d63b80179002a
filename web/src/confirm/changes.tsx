// What a change to an environment would do, read fresh as the operator (the
// same tools every client uses): what is live there, the revision a deploy
// puts live or a rollback brings back, and the diff between them. The
// confirmation dialogs and the proposal cards show these.
import { useQuery } from '@tanstack/react-query';
import { runTool, ToolError } from '../api/client';
import { useRevisionText, useSecrets } from '../api/queries';
import { queryKeys } from '../api/queryKeys';
import type { DeploymentView } from '../../../src/wire/deployment';
import { rollbackRevision } from '../../../src/wire/rollback-chain';
import type { ProposalResponse } from '../../../src/wire/proposal';
import { LineDiff } from '../ui/LineDiff';
import { shortTime } from '../ui/time';
import { othersApprove } from './ReasonField';

/** How far back the rollback target is looked for (the tool's maximum). */
const HISTORY = 100;

interface Live {
  revision: number;
  deployment: number;
}

/** What is live at a path of an environment; null when nothing is. */
function useLive(project: string, environment: string, path: string) {
  return useQuery({
    queryKey: queryKeys.live(project, environment, path),
    queryFn: ({ signal }) =>
      runTool('get_live_config', { project, environment, path }, signal).then(
        (r) => r.live[0] ?? null,
        (error: unknown) => {
          if (error instanceof ToolError && /is not live/.test(error.message)) return null;
          throw error;
        },
      ),
    staleTime: 0,
  });
}

/** The current revision of a document (number and text), read fresh. */
function useCurrent(project: string, path: string, enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.currentRevision(project, path),
    queryFn: ({ signal }) => runTool('read_document', { project, path }, signal),
    enabled,
    staleTime: 0,
  });
}

export interface RollbackTarget {
  live: Live | null;
  /** The deployment whose revision comes back; null when there is none. */
  previous: DeploymentView | null;
  /** Whether the whole history was read (so "none" is certain). */
  complete: boolean;
  /** Whether the path was only ever live at the live revision (else earlier ones were rolled back already). */
  onlyLive: boolean;
}

/** The revision a rollback brings back, as the server picks it: the one live before the current, skipping what rollbacks undid. */
export function useRollbackTarget(project: string, environment: string, path: string) {
  const live = useLive(project, environment, path);
  const history = useQuery({
    queryKey: queryKeys.deployments(project, environment, HISTORY),
    queryFn: ({ signal }) =>
      runTool('list_deployments', { project, environment, limit: HISTORY }, signal).then((r) => r.deployments),
    staleTime: 0,
  });
  if (live.error || history.error) return { error: (live.error ?? history.error)?.message ?? '', target: null };
  if (live.data === undefined || history.data === undefined) return { error: '', target: null };
  const now = live.data;
  // Replayed as the server does (src/wire/rollback-chain.ts): a rollback never toggles back to what it just undid.
  const ofPath = history.data.filter((d) => d.path === path && now !== null && d.deployment <= now.deployment).reverse();
  const back = now ? rollbackRevision(ofPath) : null;
  const previous = back === null ? null : (ofPath.findLast((d) => d.revision === back) ?? null);
  const target: RollbackTarget = { live: now, previous, complete: history.data.length < HISTORY, onlyLive: ofPath.every((d) => d.revision === now?.revision) };
  return { error: '', target };
}

/** A deploy: what is live against the revision that would go live (`revision` undefined: the current one). */
export function DeployChange({ project, environment, path, revision }: { project: string; environment: string; path: string; revision?: number }) {
  const live = useLive(project, environment, path);
  const current = useCurrent(project, path, revision === undefined);
  const target = revision ?? current.data?.revision;
  const liveText = useRevisionText(project, path, live.data?.revision);
  const targetText = useRevisionText(project, path, target);
  const failure = live.error ?? current.error ?? liveText.error ?? targetText.error;
  if (failure) return <p className="error small">Could not read what would change: {failure.message}</p>;
  if (live.data === undefined || target === undefined || targetText.data === undefined || (live.data && liveText.data === undefined)) {
    return <p className="muted small">Reading what is live…</p>;
  }
  const which = revision === undefined ? `r${target} (the current revision)` : `r${target}`;
  return (
    <div className="change">
      <p className="change-summary">
        {live.data ? (
          live.data.revision === target ? (
            <>
              {path} <strong>{which}</strong> is already live in {environment}; deploying it again changes nothing.
            </>
          ) : (
            <>
              {path} <strong>r{live.data.revision}</strong> is live in {environment}; <strong>{which}</strong> would replace it.
            </>
          )
        ) : (
          <>
            {path} is not live in {environment} yet; <strong>{which}</strong> would go live.
          </>
        )}
      </p>
      {live.data?.revision !== target && (
        <LineDiff before={liveText.data ?? ''} after={targetText.data} label={`Changes to ${path} in ${environment}`} />
      )}
    </div>
  );
}

/** A rollback: the revision that comes back, and the diff from what is live; one `pinned` to another revision says it will be refused. */
export function RollbackChange({ project, environment, path, pinned }: { project: string; environment: string; path: string; pinned?: number | undefined }) {
  const { error, target } = useRollbackTarget(project, environment, path);
  const liveText = useRevisionText(project, path, target?.live?.revision);
  const backText = useRevisionText(project, path, target?.previous?.revision);
  const failure = error || liveText.error?.message || backText.error?.message;
  if (failure) return <p className="error small">Could not read what would change: {failure}</p>;
  if (!target) return <p className="muted small">Reading the deployments…</p>;
  if (!target.live) return <p className="change-summary">{path} is not live in {environment}; there is nothing to roll back.</p>;
  const { live, previous } = target;
  if (pinned !== undefined && previous?.revision !== pinned) {
    return (
      <p className="change-summary error">
        This rollback was proposed to bring back <strong>r{pinned}</strong>, but {previous ? `r${previous.revision}` : 'no revision'} is the one before the live r
        {live.revision} now, so accepting it is refused; ask for a new rollback.
      </p>
    );
  }
  if (!previous) {
    return (
      <p className="change-summary">
        {target.complete
          ? target.onlyLive
            ? `${path} has been live in ${environment} only at r${live.revision}; there is no earlier revision to roll back to.`
            : `${path} r${live.revision} is live in ${environment}, and every revision live before it was rolled back already; deploy the one you want instead.`
          : `${path} r${live.revision} is live in ${environment}; the revision before it is older than the last ${HISTORY} deployments.`}
      </p>
    );
  }
  return (
    <div className="change">
      <p className="change-summary">
        {path} <strong>r{live.revision}</strong> is live in {environment}; rollback brings back <strong>r{previous.revision}</strong>,
        deployed as #{previous.deployment} by {previous.operator ?? 'someone'} {shortTime(previous.deployed_at)}.
      </p>
      {liveText.data === undefined || backText.data === undefined ? (
        <p className="muted small">Reading the diff…</p>
      ) : (
        <LineDiff before={liveText.data} after={backText.data} label={`Changes to ${path} in ${environment}`} />
      )}
    </div>
  );
}

/** A secret set or deleted: its name and the version it replaces (never a value). */
export function SecretChange({ project, environment, name, deleting }: { project: string; environment: string; name: string; deleting: boolean }) {
  const secrets = useSecrets(project, environment);
  const existing = secrets.data?.find((s) => s.name === name);
  if (secrets.data === undefined) return <p className="muted small">{secrets.error ? secrets.error.message : 'Reading the secrets…'}</p>;
  return (
    <p className="change-summary">
      {deleting ? (
        <>
          Deletes <code>{name}</code>
          {existing ? ` (v${existing.version})` : ''} from {environment}. The server refuses while a document live there refers to it.
        </>
      ) : existing ? (
        <>
          Sets <code>{name}</code> in {environment} to a new value: <strong>v{existing.version + 1}</strong> replaces v{existing.version}.
        </>
      ) : (
        <>
          Adds <code>{name}</code> to {environment} (<strong>v1</strong>). The value is never shown again.
        </>
      )}
    </p>
  );
}

/** A change to an environment's protection, in words; an undefined setting stays as it is. */
export function ProtectionChange({
  environment,
  protect,
  approvals,
  requesterMayApprove,
}: {
  environment: string;
  protect: boolean | undefined;
  approvals: number | undefined;
  requesterMayApprove?: boolean;
}) {
  const sentences = [
    protect === true && `${environment} becomes protected: only operators and admins may deploy or set secrets there.`,
    protect === false && `${environment} stops being protected: developers may deploy and set secrets there, no name is asked, and one approval is enough.`,
    protect !== false && approvals !== undefined && approvals > 1 && `Each change to ${environment} becomes a change request that runs once ${othersApprove(approvals)}.`,
    protect !== false && approvals === 1 && `Changes to ${environment} run once the operator making them confirms; no other operator approves them.`,
    requesterMayApprove === true && `The requester's own approval counts as one of those.`,
    requesterMayApprove === false && `The requester's own approval never counts: others approve.`,
  ];
  return <p className="change-summary">{sentences.filter(Boolean).join(' ')}</p>;
}

const row = (proposal: ProposalResponse, k: string) => proposal.rows.find((r) => r.k === k)?.v;

/** What a proposal would change in its environment, for the tools that change one; null for the others. */
export function ProposalChange({ proposal }: { proposal: ProposalResponse }) {
  const project = proposal.project ?? '';
  const environment = proposal.environment;
  const path = row(proposal, 'path');
  switch (proposal.tool) {
    case 'deploy': {
      if (!path) return null;
      const revision = /^r(\d+)$/.exec(row(proposal, 'revision') ?? '')?.[1];
      return <DeployChange project={project} environment={environment} path={path} revision={revision === undefined ? undefined : Number(revision)} />;
    }
    case 'rollback': {
      // Pinned when proposed (DESIGN.md §14): the row names the revision it showed.
      const pinned = /^r(\d+),/.exec(row(proposal, 'revision') ?? '')?.[1];
      return path ? <RollbackChange project={project} environment={environment} path={path} pinned={pinned === undefined ? undefined : Number(pinned)} /> : null;
    }
    case 'set_secret':
    case 'delete_secret': {
      const name = row(proposal, 'secret') ?? row(proposal, 'delete secret');
      return name ? <SecretChange project={project} environment={environment} name={name} deleting={proposal.tool === 'delete_secret'} /> : null;
    }
    case 'set_environment_protection': {
      // The tool leaves out a row it was not sent: only then is that setting unchanged.
      const protect = row(proposal, 'protected');
      const approvals = row(proposal, 'approvals required');
      const self = row(proposal, 'requester may approve');
      return (
        <ProtectionChange
          environment={environment}
          protect={protect === undefined ? undefined : protect === 'yes'}
          approvals={approvals === undefined ? undefined : Number(approvals)}
          requesterMayApprove={self === undefined ? undefined : self === 'yes'}
        />
      );
    }
    default:
      return null;
  }
}
