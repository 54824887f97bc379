import { useId, type ReactNode } from 'react';
import { FieldErrors, fieldInvalid } from './ErrorDisplay';

interface FieldProps {
  label: string;
  /** JSON pointer of this field in the request body; the API error's details name it. */
  pointer: string;
  error?: unknown;
  hint?: ReactNode;
  required?: boolean;
  children: (props: {
    id: string;
    'aria-invalid': boolean;
    'aria-describedby': string;
    required: boolean;
  }) => ReactNode;
}

/** A labelled form field that shows the API's complaint about it right under it. */
export function Field({ label, pointer, error, hint, required = false, children }: FieldProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  return (
    <div className="field">
      <span className="field-label">
        <label htmlFor={id}>{label}</label>
        {required ? (
          <span aria-hidden="true" className="required-mark">
            {' '}
            *
          </span>
        ) : null}
      </span>
      {children({
        id,
        'aria-invalid': fieldInvalid(error, pointer),
        'aria-describedby': `${hintId} ${errorId}`,
        required,
      })}
      <span id={hintId} className="hint">
        {hint}
      </span>
      <FieldErrors error={error} pointer={pointer} id={errorId} />
    </div>
  );
}

/** A text input field (the common case of Field). */
export function TextField(props: {
  label: string;
  pointer: string;
  error?: unknown;
  value: string;
  onChange: (value: string) => void;
  hint?: ReactNode;
  required?: boolean;
  type?: string;
  autoComplete?: string;
}) {
  const { value, onChange, type = 'text', autoComplete, ...field } = props;
  return (
    <Field {...field}>
      {(input) => (
        <input
          {...input}
          type={type}
          value={value}
          autoComplete={autoComplete}
          onChange={(e) => onChange(e.target.value)}
        />
      )}
    </Field>
  );
}
