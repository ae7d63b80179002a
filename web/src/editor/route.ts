// The editor's route, and its code: a lazy chunk (CodeMirror), the longest
// wait of the route. A tab that starts on the route asks for the chunk as
// this module loads — main.tsx imports it first, so the request leaves
// before the rest of the console's code has run. No CodeMirror here.
import type * as EditorModule from './EditorPage';
import { currentToken } from '../auth/token';
import { editorRouteOf as addressedDocument } from '../../../src/wire/console-routes';

let loading: Promise<typeof EditorModule> | null = null;
let loaded: typeof EditorModule | null = null;

/** The editor's code, asked for once; a failed load is asked for again next time. */
export function loadEditorPage(): Promise<typeof EditorModule> {
  loading ??= import('./EditorPage').then(
    (module) => (loaded = module),
    (error: unknown) => {
      loading = null;
      throw error;
    },
  );
  return loading;
}

/** The editor's code once it has loaded, else null. */
export const loadedEditorPage = (): typeof EditorModule | null => loaded;

/** The document an address opens in the editor; null for any other page. */
export function editorRouteOf(pathname: string): { project: string; path: string } | null {
  const route = addressedDocument(pathname);
  return route && { project: decodeURIComponent(route.project), path: decodeURIComponent(route.path) };
}

if (editorRouteOf(window.location.pathname) && currentToken()) void loadEditorPage();
