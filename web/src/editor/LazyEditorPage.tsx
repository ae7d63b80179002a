// The editor route's page while its code (editor/route) loads: "Loading…",
// then the editor as a plain update. Not React.lazy: a lazy page suspends,
// and React holds back what a Suspense fallback gives way to until 300 ms
// after the fallback showed (its fallback throttle), so the editor stood
// ready but hidden for most of that. A failed load throws to the page's
// error boundary, as the lazy page did. No CodeMirror here.
import { useEffect, useState } from 'react';
import { loadedEditorPage, loadEditorPage } from './route';

export function LazyEditorPage({ project, path }: { project: string; path: string }) {
  const [editor, setEditor] = useState(loadedEditorPage);
  const [failure, setFailure] = useState<{ error: unknown } | null>(null);
  useEffect(() => {
    if (editor) return;
    let here = true;
    loadEditorPage().then(
      (module) => here && setEditor(module),
      (error: unknown) => here && setFailure({ error }),
    );
    return () => {
      here = false;
    };
  }, [editor]);
  if (failure) throw failure.error;
  if (!editor) return <p className="loading">Loading…</p>;
  const EditorRoute = editor.default;
  return <EditorRoute project={project} path={path} />;
}
