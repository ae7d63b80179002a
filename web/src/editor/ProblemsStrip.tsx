// Below the editor: the checker's diagnostics for the chosen environment.
import type { Diagnostic } from '../api/types';

const SHOWN = 3;

export function ProblemsStrip({ diagnostics, environment }: { diagnostics: Diagnostic[] | null; environment: string | undefined }) {
  return (
    <footer className="problems" aria-label="Problems" aria-live="polite">
      {diagnostics === null ? (
        <span className="muted">Checking for {environment}…</span>
      ) : diagnostics.length === 0 ? (
        <span className="ok">No problems — checked for {environment}</span>
      ) : (
        <>
          <strong className="error-text">
            {diagnostics.length} problem{diagnostics.length === 1 ? '' : 's'}
          </strong>
          {diagnostics.slice(0, SHOWN).map((d, i) => (
            <span key={i}>
              {' '}
              · {d.line}:{d.column} {d.message}
            </span>
          ))}
          <span className="muted"> — checked for {environment}</span>
        </>
      )}
    </footer>
  );
}
