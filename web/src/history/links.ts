// Where a document's pages live: its editor and its history (document paths
// are `[a-z0-9._/-]`, safe in a URL as they are).

export function editorHref(project: string, path: string, environment?: string): string {
  const query = environment ? `?environment=${encodeURIComponent(environment)}` : '';
  return `/projects/${encodeURIComponent(project)}/documents/${path}${query}`;
}

/** The history, showing the diff `from` → `to` (by default, the current revision against the one before). */
export function historyHref(project: string, path: string, diff: { from?: number; to?: number } = {}): string {
  const query = new URLSearchParams();
  if (diff.from !== undefined) query.set('from', String(diff.from));
  if (diff.to !== undefined) query.set('to', String(diff.to));
  const search = query.size > 0 ? `?${query}` : '';
  return `/projects/${encodeURIComponent(project)}/documents/${path}/history${search}`;
}
