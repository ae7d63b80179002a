// A button for an action the operator may not be allowed to take: when not,
// it stays focusable but inert, and carries the refusal sentence as its
// accessible description (and tooltip).
import { useId, type ButtonHTMLAttributes } from 'react';
import type { Permission } from './permission';

interface Props extends ButtonHTMLAttributes<HTMLButtonElement> {
  permission: Permission;
  primary?: boolean;
}

export function ActionButton({ permission, primary, disabled, onClick, className, children, ...rest }: Props) {
  const reasonId = useId();
  const refused = !permission.allowed;
  const inert = refused || disabled;
  return (
    <>
      <button
        type="button"
        {...rest}
        className={[primary ? 'primary' : '', className ?? ''].join(' ').trim() || undefined}
        aria-disabled={inert || undefined}
        aria-describedby={refused && permission.reason ? reasonId : rest['aria-describedby']}
        title={refused ? permission.reason : rest.title}
        onClick={inert ? undefined : onClick}
      >
        {children}
      </button>
      {refused && permission.reason && (
        <span id={reasonId} hidden>
          {permission.reason}
        </span>
      )}
    </>
  );
}
