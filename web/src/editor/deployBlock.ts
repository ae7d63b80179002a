// Why Deploy cannot run now, in a sentence ('' when it can): Deploy puts the
// saved revision live, and only one the checker passes for the environment.
import type { Diagnostic } from '../../../src/wire/diagnostic';
import type { RevisionView } from '../../../src/wire/document';

interface State {
  saved: RevisionView | null;
  dirty: boolean;
  environment: string | undefined;
  /** The checker's diagnostics of the saved text in the environment; null until checked. */
  diagnostics: Diagnostic[] | null;
}

export function deployBlock({ saved, dirty, environment, diagnostics }: State): string {
  if (!saved) return 'Save the document before deploying it.';
  if (dirty) return 'Save first: Deploy puts the saved revision live.';
  if (!environment) return '';
  if (diagnostics === null) return `Checking r${saved.revision} for ${environment}…`;
  const [first] = diagnostics;
  if (!first) return '';
  const count = diagnostics.length === 1 ? '1 problem' : `${diagnostics.length} problems`;
  return `Not deployable: the checker finds ${count} in r${saved.revision} for ${environment} (first, ${first.line}:${first.column} ${first.message}); fix and save it first.`;
}
