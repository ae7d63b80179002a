// The editor page's keys, wherever the focus is on the page: Ctrl/Cmd+S
// saves; Ctrl/Cmd+F opens the editor's search (the browser's own find sees
// only the lines on screen), except in the assistant's panel.
import { useEffect, useRef } from 'react';

interface Keys {
  save(): void;
  find(): void;
}

export function usePageKeys(keys: Keys): void {
  const latest = useRef(keys);
  useEffect(() => {
    latest.current = keys;
  });
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey) return;
      const key = event.key.toLowerCase();
      if (key === 's') {
        event.preventDefault();
        latest.current.save();
      } else if (key === 'f' && !(event.target instanceof Element && event.target.closest('.assistant-panel, .cm-editor'))) {
        event.preventDefault();
        latest.current.find();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
