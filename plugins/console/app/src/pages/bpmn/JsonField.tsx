import { useId } from 'react';
import { FieldErrors, fieldInvalid } from '../../kit/ErrorDisplay';

/** Parses a JSON object typed by the user; the message says what is wrong, for the field to show. */
export function parseObject(text: string): { value?: Record<string, unknown>; problem?: string } {
  if (text.trim() === '') return { value: {} };
  try {
    const value = JSON.parse(text) as unknown;
    if (!value || typeof value !== 'object' || Array.isArray(value))
      return { problem: 'Write a JSON object, e.g. {"approved": true}.' };
    return { value: value as Record<string, unknown> };
  } catch (err) {
    return { problem: `Not JSON: ${(err as Error).message}` };
  }
}

interface Props {
  label: string;
  pointer: string;
  value: string;
  onChange: (text: string) => void;
  error?: unknown;
  rows?: number;
}

/** A textarea for a JSON object (variables), with the local parse problem and the API's complaint under it. */
export function JsonField({ label, pointer, value, onChange, error, rows = 4 }: Props) {
  const id = useId();
  const problem = parseObject(value).problem;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <textarea
        id={id}
        rows={rows}
        className="code"
        spellCheck={false}
        value={value}
        aria-invalid={Boolean(problem) || fieldInvalid(error, pointer)}
        aria-describedby={`${id}-problem ${id}-error`}
        onChange={(e) => onChange(e.target.value)}
      />
      <span id={`${id}-problem`} className="field-error">
        {problem}
      </span>
      <FieldErrors error={error} pointer={pointer} id={`${id}-error`} />
    </div>
  );
}
