// The project's pages, its environments, and (on the document routes) its documents.
import { Link, useLocation } from 'wouter';
import { useDocuments, useProject } from '../api/queries';

export function Nav({ project, environment }: { project: string; environment: string | undefined }) {
  const [location] = useLocation();
  const details = useProject(project).data;
  const base = `/projects/${encodeURIComponent(project)}`;
  const onDocuments = location.startsWith(`${base}/documents`);
  const documents = useDocuments(project).data ?? [];
  const query = environment ? `?environment=${encodeURIComponent(environment)}` : '';
  const item = (href: string, label: string, exact = true) => {
    const current = exact ? location === href : location.startsWith(href);
    return (
      <li key={href}>
        <Link href={href} aria-current={current ? 'page' : undefined}>
          {label}
        </Link>
      </li>
    );
  };
  return (
    <nav className="nav" id="project-nav" aria-label="Project">
      <h2>{details?.name ?? project}</h2>
      <ul>
        {item(base, 'Overview')}
        {item(`${base}/documents`, 'Documents')}
        {item(`${base}/members`, 'Members')}
        {item(`${base}/change-requests`, 'Change requests', false)}
        {item(`${base}/audit`, 'Audit')}
        {details?.role === 'admin' && item(`${base}/webhooks`, 'Webhooks')}
      </ul>
      <h2>Environments</h2>
      <ul>
        {(details?.environments ?? []).map((e) =>
          item(`${base}/environments/${encodeURIComponent(e.name)}`, e.protected ? `${e.name} · protected` : e.name),
        )}
      </ul>
      {onDocuments && documents.length > 0 && (
        <>
          <h2>Documents</h2>
          <ul>
            {documents.map((d) => (
              <li key={d.path}>
                <Link
                  href={`${base}/documents/${d.path}${query}`}
                  aria-current={location === `${base}/documents/${d.path}` ? 'page' : undefined}
                >
                  {d.path}
                </Link>
              </li>
            ))}
          </ul>
        </>
      )}
    </nav>
  );
}
