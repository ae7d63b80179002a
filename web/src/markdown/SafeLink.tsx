// A link an answer wrote. A page of this console opens in this tab (the
// sign-in lives in the tab, so a new one would be signed out); any other
// http(s) or mailto link opens in a new tab that cannot reach this one;
// anything else (javascript:, data:, file:, …) stays plain text.
import type { ReactNode } from 'react';
import { Link } from 'wouter';

type Target = { inConsole: true; path: string } | { inConsole: false; href: string };

const ELSEWHERE = new Set(['http:', 'https:', 'mailto:']);

export function linkTarget(href: string | null): Target | null {
  if (!href) return null;
  let url: URL;
  try {
    url = new URL(href, window.location.origin);
  } catch {
    return null;
  }
  if (url.origin === window.location.origin) return { inConsole: true, path: `${url.pathname}${url.search}${url.hash}` };
  return ELSEWHERE.has(url.protocol) ? { inConsole: false, href: url.href } : null;
}

export function SafeLink({ href, children }: { href: string | null; children: ReactNode }) {
  const target = linkTarget(href);
  if (!target) return <>{children}</>;
  if (target.inConsole) return <Link href={target.path}>{children}</Link>;
  return (
    <a href={target.href} target="_blank" rel="noopener noreferrer" title={target.href}>
      {children}
    </a>
  );
}
