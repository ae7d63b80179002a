// The editor's one line of news under the toolbar: what an action did, or
// the server's sentence when it failed (an alert).
import { useMemo, useState, type ReactNode } from 'react';

interface Notice {
  text: ReactNode;
  error: boolean;
}

export interface Notices {
  notice: Notice | null;
  say(text: ReactNode): void;
  fail(error: unknown): void;
  clear(): void;
}

export function useNotice(): Notices {
  const [notice, setNotice] = useState<Notice | null>(null);
  return useMemo(
    () => ({
      notice,
      say: (text) => setNotice({ text, error: false }),
      fail: (error) => setNotice({ text: error instanceof Error ? error.message : String(error), error: true }),
      clear: () => setNotice(null),
    }),
    [notice],
  );
}

export function NoticeLine({ notice }: { notice: Notice | null }) {
  if (!notice) return null;
  return (
    <p role={notice.error ? 'alert' : 'status'} className={notice.error ? 'error notice-line' : 'ok notice-line'}>
      {notice.text}
    </p>
  );
}
