// Which change requests the page lists, as links that keep the rest of the
// address: a row of three, the current one marked for the eye and for readers.
import { Link } from 'wouter';
import type { Show } from './queries';

export function ShowLinks({ show, search, project }: { show: Show; search: URLSearchParams; project: string | undefined }) {
  const base = project ? `/projects/${encodeURIComponent(project)}/change-requests` : '/change-requests';
  const choices: [Show, string][] = [
    ['for-me', 'Waiting for me'],
    ['by-me', 'Asked by me'],
    ['all', project ? `All of ${project}` : 'All'],
  ];
  const href = (choice: Show) => {
    const next = new URLSearchParams(search);
    next.set('show', choice);
    return `${base}?${next}`;
  };
  return (
    <nav aria-label="Which change requests" className="show-links">
      {choices.map(([choice, label]) => (
        <Link key={choice} href={href(choice)} aria-current={choice === show ? 'page' : undefined}>
          {label}
        </Link>
      ))}
    </nav>
  );
}
