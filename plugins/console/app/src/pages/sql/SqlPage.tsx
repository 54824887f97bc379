import '../pages.css';
import { useMutation } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { lazy, Suspense, useId, useState } from 'react';
import { api } from '../../api/client';
import { ApiError, toApiError } from '../../api/errors';
import type { components } from '../../api/schema';
import { ActionButton } from '../../kit/ActionButton';
import { ErrorBanner } from '../../kit/ErrorDisplay';
import { ShowAsCode } from '../../kit/ShowAsCode';
import { sqlRoute } from './routes';

const SqlEditor = lazy(() => import('./SqlEditor'));

type QueryResult = components['schemas']['sql.QueryResult'];

class SqlError extends ApiError {
  retryAfter?: string;
}

/** Runs the query; a refusal keeps its Retry-After, which the explanation quotes. */
async function runQuery(body: { sql: string; limit: number }): Promise<QueryResult> {
  const result = await api.POST('/sql/query', { body }).catch((err: Error) => {
    throw new ApiError(0, 'network_error', `The server could not be reached (${err.message}).`);
  });
  if (!result.response.ok) {
    const base = toApiError(result.response, result.error);
    const error = new SqlError(base.status, base.code, base.message, base.details);
    error.retryAfter = result.response.headers.get('Retry-After') ?? undefined;
    throw error;
  }
  return result.data as QueryResult;
}

/** What an answer of the SQL console means, beyond its code and message. */
function Explanation({ error }: { error: unknown }) {
  if (!(error instanceof ApiError)) return null;
  let text: string | null = null;
  if (error.status === 429)
    text = `Your tenant already runs as many queries as it may at once (on the embedded database, one query runs at a time on the whole server). Wait ${(error as SqlError).retryAfter ? `${(error as SqlError).retryAfter} s` : 'a moment'} and run it again.`;
  else if (error.code === 'query_timeout')
    text =
      'The query ran past the statement timeout (5 s) and was cancelled. Narrow it: filter on an indexed column (tenant_id, time), select fewer columns, or add a LIMIT.';
  else if (error.status === 400)
    text =
      'Only one read query is accepted (SELECT, VALUES, TABLE or WITH … SELECT) over the tables the console exposes; commands and writes are refused.';
  else if (error.status === 403) text = 'The query read a table or column the console role is not granted.';
  return text ? <p className="sql-explanation">{text}</p> : null;
}

function cell(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

export function SqlPage() {
  const { q } = sqlRoute.useSearch();
  const navigate = useNavigate({ from: sqlRoute.fullPath });
  const [text, setText] = useState(q ?? 'SELECT id, type, state FROM components ORDER BY id LIMIT 50');
  const [limit, setLimit] = useState('200');
  const limitId = useId();
  const body = { sql: text, limit: Math.min(1000, Math.max(1, Number(limit) || 200)) };
  const run = useMutation({
    mutationFn: () => runQuery(body),
    onMutate: () => navigate({ search: { q: text }, replace: true }),
  });
  const data = run.data;
  return (
    <div className="page">
      <header className="page-header">
        <h1>SQL console</h1>
      </header>
      <p className="muted">
        Read-only queries over this tenant's rows only: no other tenant's data is reachable. Ctrl+Enter runs.
      </p>
      <Suspense fallback={<p role="status">Loading the editor…</p>}>
        <SqlEditor initial={text} onChange={setText} onRun={() => run.mutate()} label="SQL query" />
      </Suspense>
      <div className="toolbar">
        <div className="field">
          <label htmlFor={limitId}>Row limit</label>
          <input
            id={limitId}
            type="number"
            min={1}
            max={1000}
            value={limit}
            onChange={(e) => setLimit(e.target.value)}
          />
        </div>
        <ActionButton op="runSqlQuery" variant="primary" busy={run.isPending} onPress={() => run.mutate()}>
          Run query
        </ActionButton>
        <ShowAsCode call={{ op: 'runSqlQuery', body }} />
      </div>
      {run.error ? (
        <div>
          <ErrorBanner error={run.error} title="The query was refused" />
          <Explanation error={run.error} />
        </div>
      ) : null}
      {data ? (
        <section aria-label="Result">
          <p role="status">
            {data.row_count} row{data.row_count === 1 ? '' : 's'} in {Math.round(data.duration_ms)} ms
            {data.truncated ? ' (truncated at the row limit)' : ''}.
          </p>
          <div className="table-scroll">
            <table>
              <caption className="visually-hidden">Query result</caption>
              <thead>
                <tr>
                  {data.columns.map((c) => (
                    <th key={c.name} scope="col">
                      {c.name}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {data.rows.map((row, r) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: result rows have no identity of their own
                  <tr key={r}>
                    {row.map((value, c) => (
                      // biome-ignore lint/suspicious/noArrayIndexKey: columns are positional
                      <td key={c}>{cell(value)}</td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      ) : null}
    </div>
  );
}
