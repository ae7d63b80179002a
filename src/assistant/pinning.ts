// A deploy or rollback proposal is pinned to the revision it shows (DESIGN.md
// §14): the revision goes into its input, so accepting it puts exactly that
// revision live (a rollback whose target moved meanwhile is refused), and its
// rows say which. A newer revision is a new proposal, never a silent swap.
import { rollbackTarget } from '../domain/deployments.js';
import { readRevision } from '../domain/documents.js';
import { AppError } from '../errors.js';
import type { Db } from '../store/db.js';
import type { ProposedWrite } from '../tools/executor.js';

export async function pinRevision(db: Db, write: ProposedWrite): Promise<ProposedWrite> {
  const { tool, input, project, environment } = write;
  if ((tool.name !== 'deploy' && tool.name !== 'rollback') || input.revision !== undefined || !project || !environment) return write;
  const path = String(input.path);
  const revision = await (tool.name === 'deploy' ? readRevision(db, project, path).then((r) => r.revision) : rollbackTarget(db, environment, path)).catch(
    // What cannot be read now fails at accept with its own sentence; there is nothing to pin.
    (error: unknown) => {
      if (error instanceof AppError) return null;
      throw error;
    },
  );
  if (revision === null) return write;
  const pinned = { ...input, revision };
  const shown = new Map(tool.rows(pinned).map((row) => [row.k, row]));
  return { ...write, input: pinned, rows: write.rows.map((row) => (row.k === 'revision' ? (shown.get('revision') ?? row) : row)) };
}
