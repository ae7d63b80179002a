// Project and environment pickers, the role chip, the change requests and
// conversations waiting for a decision, the assistant's toggle, who is signed in, Sign out.
import { Link, useLocation } from 'wouter';
import { useProject, useProjects, useWhoami } from '../api/queries';
import { SignOut } from '../auth/SignOut';
import { environmentHref, rememberEnvironment, type Scope } from '../scope';
import { ProtectedChip } from '../ui/ProtectedChip';
import { setPanelOpen } from './panelLayout';
import { RequestsWaiting } from './RequestsWaiting';
import { PANEL_ID, TOGGLE_ID } from './useDrawer';
import { useTabTitle } from './useTabTitle';
import { WaitingCount } from './WaitingCount';

export function TopBar({ scope, panelOpen }: { scope: Scope; panelOpen: boolean }) {
  const [location, navigate] = useLocation();
  const projects = useProjects().data ?? [];
  const project = useProject(scope.project).data;
  const who = useWhoami().data;
  const here = project?.environments.find((e) => e.name === scope.environment);
  useTabTitle(scope);

  function pickEnvironment(name: string) {
    if (!scope.project) return;
    rememberEnvironment(scope.project, name);
    navigate(environmentHref(location, scope.project, name));
  }

  return (
    <header className="topbar">
      <Link href="/" className="brand">
        Aion Ops
      </Link>
      {projects.length > 0 && (
        <select
          aria-label="Project"
          value={scope.project ?? ''}
          onChange={(e) => navigate(e.target.value ? `/projects/${encodeURIComponent(e.target.value)}` : '/')}
        >
          {!scope.project && <option value="">All projects</option>}
          {projects.map((p) => (
            <option key={p.slug} value={p.slug}>
              {p.slug}
            </option>
          ))}
        </select>
      )}
      {project && scope.environment && (
        <select aria-label="Environment" value={scope.environment} onChange={(e) => pickEnvironment(e.target.value)}>
          {project.environments.map((e) => (
            <option key={e.name} value={e.name}>
              {e.name}
            </option>
          ))}
        </select>
      )}
      {here?.protected && <ProtectedChip approvals={here.approvals_required} />}
      {project && (
        <span className="chip role" title={`Your role in ${project.slug}`}>
          {project.role}
        </span>
      )}
      <span className="spacer" />
      <RequestsWaiting />
      <WaitingCount />
      <button type="button" id={TOGGLE_ID} aria-expanded={panelOpen} aria-controls={PANEL_ID} onClick={() => setPanelOpen(!panelOpen)}>
        Assistant
      </button>
      {who && <span className="muted who">{who.operator}</span>}
      <SignOut />
    </header>
  );
}
