// One operator action at a time: busy while it runs, its sentence when it fails,
// and the queries it changes refreshed after.
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';

export function useAction() {
  const queries = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  async function run<T>(action: () => Promise<T>, refresh: string[] = []): Promise<T | undefined> {
    setBusy(true);
    setError('');
    try {
      return await action();
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
      return undefined;
    } finally {
      setBusy(false);
      await Promise.all(refresh.map((key) => queries.invalidateQueries({ queryKey: [key] })));
    }
  }
  return { run, busy, error, clearError: () => setError('') };
}
