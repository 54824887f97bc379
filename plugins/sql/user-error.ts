import { ApiError } from '../../kernel/errors.js';
import type { QueryLimits } from './run-query.js';

/** A database error of the user's statement, from either database; `position` counted in the user's SQL. */
export interface StatementError {
  code: string;
  message: string;
  position?: number;
}

/** A database error of the user's statement as a client error. */
export function userError(err: StatementError, timedOut: boolean, limits: QueryLimits): ApiError {
  const position = err.position;
  if (err.code === '57014' || timedOut) {
    return new ApiError(
      'query_timeout',
      `The query ran past the console's limit of ${limits.statementTimeoutMs} ms (statement timeout) and was cancelled.`,
    );
  }
  if (err.code === '42601' && position === 1) {
    return new ApiError(
      'bad_request',
      'The console runs one query: SELECT, VALUES, TABLE or WITH … SELECT (no commands, no writes, one statement).',
      {
        details: [{ in: 'body', pointer: '/sql', message: `${err.message} at position 1` }],
      },
    );
  }
  if (err.code === '42601' && /multiple commands/.test(err.message)) {
    return new ApiError('bad_request', 'The console runs exactly one statement; remove the `;` and what follows.', {
      details: [{ in: 'body', pointer: '/sql', message: err.message }],
    });
  }
  if (
    err.code === '42501' ||
    err.code === '25006' ||
    (err.code === '0A000' && /read-only|DECLARE/i.test(err.message))
  ) {
    return new ApiError('forbidden', `The console cannot do that: ${err.message}.`);
  }
  const where = position !== undefined && position >= 1 ? ` at position ${position}` : '';
  return new ApiError('bad_request', `The query failed: ${err.message}${where}.`, {
    details: [{ in: 'body', pointer: '/sql', message: `${err.message}${where} (SQLSTATE ${err.code})` }],
  });
}
