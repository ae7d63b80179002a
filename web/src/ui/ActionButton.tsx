// A button for an action the operator may not be allowed to take: when not,
// it stays focusable but inert, and carries the refusal sentence as its
// accessible description (and tooltip); so does every action while the
// server cannot be reached.
import { useId, type ButtonHTMLAttributes } from 'react';
import { OFFLINE_REASON, useServerReachable } from '../api/connection';
import type { Permission } from './permission';

interface Props extends ButtonHTMLAttributes<HTMLButtonElement> {
  permission: Permission;
  primary?: boolean;
}

export function ActionButton({ permission, primary, disabled, onClick, className, children, ...rest }: Props) {
  const reasonId = useId();
  // While the server is away, every action waits, saying why.
  const reachable = useServerReachable();
  const reason = reachable ? permission.reason : OFFLINE_REASON;
  const refused = !permission.allowed || !reachable;
  const inert = refused || disabled;
  return (
    <>
      <button
        type="button"
        {...rest}
        className={[primary ? 'primary' : '', className ?? ''].join(' ').trim() || undefined}
        aria-disabled={inert || undefined}
        aria-describedby={refused && reason ? reasonId : rest['aria-describedby']}
        title={refused ? reason : rest.title}
        onClick={inert ? undefined : onClick}
      >
        {children}
      </button>
      {refused && reason && (
        <span id={reasonId} hidden>
          {reason}
        </span>
      )}
    </>
  );
}
