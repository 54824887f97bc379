import type { ReactNode } from 'react';
import { ApiError, isApiError } from '../api/errors';

/** What an error means to the user: 403 names the permission, 503 says the service is away. */
function explanation(error: ApiError): string | null {
  if (error.status === 403)
    return 'Your roles do not include the permission this needs. Ask an administrator to grant it.';
  if (error.status === 503) return 'The service is unavailable just now; the console retries on its own.';
  if (error.status === 0) return 'Check the network connection; the console retries on its own.';
  if (error.status === 429) return 'Too many requests at once; wait a moment and try again.';
  return null;
}

/** An API error with its code and message; the field-level details are shown by each field (FieldErrors). */
export function ErrorBanner({ error, title, hint: given }: { error: unknown; title?: ReactNode; hint?: ReactNode }) {
  if (!error) return null;
  const apiError = isApiError(error)
    ? error
    : new ApiError(0, 'client_error', (error as Error).message ?? String(error));
  // A caller that knows better than the generic advice (e.g. nothing retries on its own) says so.
  const hint = given ?? explanation(apiError);
  return (
    <div role="alert" className="error-banner">
      <strong>{title ?? 'The request failed'}</strong> <code>{apiError.code}</code>
      {apiError.status ? <span className="muted"> ({apiError.status})</span> : null}: {apiError.message}
      {hint ? <p>{hint}</p> : null}
      {apiError.details.length > 0 && (
        <ul>
          {apiError.details.map((d) => (
            <li key={`${d.in}${d.pointer}${d.message}`}>
              <code>{d.pointer || '/'}</code> ({d.in}): {d.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** The problems the error's `details` name for one field (by JSON pointer), shown under that field. */
export function FieldErrors({ error, pointer, id }: { error: unknown; pointer: string; id?: string }) {
  if (!isApiError(error)) return null;
  const mine = error.details.filter((d) => d.pointer === pointer);
  if (mine.length === 0) return null;
  return (
    <span id={id} className="field-error">
      {mine.map((d) => d.message).join('; ')}
    </span>
  );
}

/** True when the error names this field (for aria-invalid). */
export function fieldInvalid(error: unknown, pointer: string): boolean {
  return isApiError(error) && error.details.some((d) => d.pointer === pointer);
}
