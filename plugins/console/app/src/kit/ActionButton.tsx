import { useId, type ReactNode } from 'react';
import type { OperationId } from '../api/operations';
import { useAllowed } from '../auth/session';

interface Props {
  op: OperationId;
  children: ReactNode;
  onPress?: () => void;
  type?: 'button' | 'submit';
  variant?: 'primary' | 'secondary' | 'danger';
  busy?: boolean;
  form?: string;
}

/**
 * A button for one API operation. When the caller lacks the operation's permission it stays in
 * place, disabled (aria-disabled, so it can still be focused and read), and says which
 * permission it needs.
 */
export function ActionButton({
  op,
  children,
  onPress,
  type = 'button',
  variant = 'secondary',
  busy = false,
  form,
}: Props) {
  const { allowed, permission } = useAllowed(op);
  const hintId = useId();
  const disabled = !allowed || busy;
  return (
    <span className="action">
      <button
        type={allowed ? type : 'button'}
        form={form}
        className={`btn btn-${variant}`}
        aria-disabled={disabled || undefined}
        aria-describedby={allowed ? undefined : hintId}
        data-permission={permission}
        onClick={(event) => {
          if (disabled) {
            event.preventDefault();
            return;
          }
          onPress?.();
        }}
      >
        {busy ? 'Working…' : children}
      </button>
      {!allowed && (
        <span id={hintId} className="needs-permission">
          Needs {permission}
        </span>
      )}
    </span>
  );
}
