// The tab's title says how many conversations and change requests wait for a
// decision, so a background tab shows it too: "(2) Aion Ops — shop / staging".
import { useEffect } from 'react';
import { useWaitingThreads } from '../assistant/useWaitingThreads';
import type { Scope } from '../scope';
import { useRequestsWaiting } from './RequestsWaiting';

export function useTabTitle(scope: Scope): void {
  const waiting = useWaitingThreads().length + useRequestsWaiting().length;
  const where = [scope.project, scope.environment].filter(Boolean).join(' / ');
  useEffect(() => {
    document.title = `${waiting > 0 ? `(${waiting}) ` : ''}Aion Ops${where ? ` — ${where}` : ''}`;
  }, [waiting, where]);
}
