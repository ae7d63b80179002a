// Project and environment pickers, the role chip, who is signed in, Sign out.
import { Link, useLocation } from 'wouter';
import { useProject, useProjects, useWhoami } from '../api/queries';
import { signOut } from '../auth/token';
import { rememberEnvironment, type Scope } from '../scope';

export function TopBar({ scope }: { scope: Scope }) {
  const [location, navigate] = useLocation();
  const projects = useProjects().data ?? [];
  const project = useProject(scope.project).data;
  const who = useWhoami().data;

  function pickEnvironment(name: string) {
    if (!scope.project) return;
    rememberEnvironment(scope.project, name);
    const base = `/projects/${encodeURIComponent(scope.project)}`;
    if (location.startsWith(`${base}/environments/`)) navigate(`${base}/environments/${encodeURIComponent(name)}`);
    else navigate(`${location}?environment=${encodeURIComponent(name)}`);
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
      {project?.environments.find((e) => e.name === scope.environment)?.protected && <span className="chip protected">protected</span>}
      {project && (
        <span className="chip role" title={`Your role in ${project.slug}`}>
          {project.role}
        </span>
      )}
      <span className="spacer" />
      {who && <span className="muted">{who.operator}</span>}
      <button type="button" onClick={signOut}>
        Sign out
      </button>
    </header>
  );
}
