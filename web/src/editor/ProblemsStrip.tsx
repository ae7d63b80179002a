// Below the editor: every diagnostic the checker gives for the chosen
// environment, each a button that puts the cursor on it. A long list
// scrolls within the strip, so the editor keeps its height.
import type { Diagnostic } from '../../../src/wire/diagnostic';

interface Props {
  diagnostics: Diagnostic[] | null;
  environment: string | undefined;
  /** Why checking failed, '' when it did not. */
  failure: string;
  /** The problems are the saved revision's: Deploy waits for them (its button says so too). */
  blockDeploy: boolean;
  onGoTo: (line: number, column: number) => void;
}

export function ProblemsStrip({ diagnostics, environment, failure, blockDeploy, onGoTo }: Props) {
  const count = diagnostics?.length ?? 0;
  return (
    <footer className="problems" aria-label="Problems">
      <p className="problems-summary" aria-live="polite">
        {failure ? (
          <span className="error-text">Could not check for {environment}: {failure}</span>
        ) : diagnostics === null ? (
          <span className="muted">Checking for {environment}…</span>
        ) : count === 0 ? (
          <span className="ok">No problems — checked for {environment}</span>
        ) : (
          <>
            <strong className="error-text">
              {count} problem{count === 1 ? '' : 's'}
            </strong>
            <span className="muted">
              {' '}
              — checked for {environment}
              {blockDeploy && '; Deploy waits until a saved revision has none'}
            </span>
          </>
        )}
      </p>
      {!failure && count > 0 && (
        <ol className="problem-list">
          {diagnostics?.map((d, i) => (
            <li key={i}>
              <button type="button" className="problem" onClick={() => onGoTo(d.line, d.column)}>
                <span className="where">
                  {d.line}:{d.column}
                </span>{' '}
                {d.message}
              </button>
            </li>
          ))}
        </ol>
      )}
    </footer>
  );
}
