// The console's document pages, read by the console (its router) and by the
// server (which names the editor's code for preloading on an editor page).

/** The history page: a document path, then `/history`. */
export const HISTORY_ROUTE = /^\/projects\/(?<project>[^/]+)\/documents\/(?<path>.+)\/history$/;

const DOCUMENT_ROUTE = /^\/projects\/(?<project>[^/]+)\/documents\/(?<path>.+)$/;

/** The document an address opens in the editor (encoded as in the address); null for any other page, its history included. */
export function editorRouteOf(pathname: string): { project: string; path: string } | null {
  const groups = DOCUMENT_ROUTE.exec(pathname)?.groups;
  if (!groups?.project || !groups.path || HISTORY_ROUTE.test(pathname)) return null;
  return { project: groups.project, path: groups.path };
}
