// The document's current revision, read back (text and author) once the
// documents list — kept current by the project's change stream — names one
// newer than the revision the editor holds: saved by another operator,
// another tab, or an accepted proposal.
import { useEffect, useState } from 'react';
import { runTool } from '../api/client';
import type { RevisionView } from '../../../src/wire/document';

export function useNewerRevision(project: string, path: string, newest: number | undefined, held: number | undefined): RevisionView | null {
  const [read, setRead] = useState<RevisionView | null>(null);
  const behind = newest !== undefined && held !== undefined && newest > held;
  useEffect(() => {
    if (!behind) return;
    let cancelled = false;
    // A failed read is read again with the next change; the editor keeps what it shows meanwhile.
    void runTool('read_document', { project, path }).then((revision) => !cancelled && setRead(revision), () => undefined);
    return () => {
      cancelled = true;
    };
  }, [project, path, newest, behind]);
  return read && held !== undefined && read.path === path && read.revision > held ? read : null;
}
