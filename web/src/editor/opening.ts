// What the editor route waits for besides its code (editor/route): the
// saved revision, the project and whether the operator may write. A tab that
// starts on the route asks for them as it starts, while the code loads,
// instead of once it has loaded and rendered. No CodeMirror here.
import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { runTool, ToolError } from '../api/client';
import { projectQuery, toolsQuery } from '../api/queries';
import { queryKeys } from '../api/queryKeys';
import { currentToken } from '../auth/token';
import { rememberedEnvironment } from '../scope';
import { editorRouteOf } from './route';

/** The revision the editor opens with; null for a document not saved yet. Read once per opening (see useEditorDocument). */
export function openingRevisionQuery(project: string, path: string) {
  return queryOptions({
    queryKey: queryKeys.editorOpening(project, path),
    queryFn: ({ signal }) =>
      runTool('read_document', { project, path }, signal).catch((error: unknown) => {
        if (error instanceof ToolError && /not found|no such/i.test(error.message)) return null;
        throw error;
      }),
    staleTime: Infinity,
  });
}

export function startEditorEarly(queries: QueryClient): void {
  const opening = editorRouteOf(window.location.pathname);
  if (!opening || !currentToken()) return;
  const { project, path } = opening;
  void queries.prefetchQuery(openingRevisionQuery(project, path));
  void queries.prefetchQuery(projectQuery(project));
  // The environment the scope will pick when the address or the tab names one; otherwise it is known only with the project.
  const environment = new URLSearchParams(window.location.search).get('environment') ?? rememberedEnvironment(project);
  if (environment) void queries.prefetchQuery(toolsQuery(project, environment));
}
