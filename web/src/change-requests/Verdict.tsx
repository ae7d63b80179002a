// The checker's verdict on what a request would put live, for its environment.
import type { ChangeRequestResponse } from '../../../src/wire/change-request';

export function Verdict({ request }: { request: ChangeRequestResponse }) {
  const { verdict, environment } = request;
  if (!verdict) return null;
  if (verdict.ok) return <p className="verdict ok">✓ The check passes in {environment}.</p>;
  return (
    <div className="verdict failing">
      <p>
        ✗ The check finds {verdict.diagnostics.length} {verdict.diagnostics.length === 1 ? 'problem' : 'problems'} in {environment}:
      </p>
      <ul>
        {verdict.diagnostics.map((d, i) => (
          <li key={i}>
            <span className="muted">
              {d.line}:{d.column}
            </span>{' '}
            {d.message}
          </li>
        ))}
      </ul>
    </div>
  );
}
