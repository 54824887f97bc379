import { Worker } from 'node:worker_threads';
import { ApiError } from '../../../kernel/errors.js';
import type { DatabaseCopy } from '../../../kernel/plugin/api.js';
import type { SqlTable } from '../contract.js';
import type { QueryLimits, QueryResult } from '../run-query.js';
import { userError } from '../user-error.js';
import { functionStatements, viewStatement } from '../views.js';
import type { CopyAnswer, CopyQuery } from './protocol.js';

/** How long a copy may take to load and be cut down to the tenant, besides the query's own limit. */
const PREPARE_MS = 60_000;

/**
 * Runs one console query on the embedded database: on a copy taken now, in a worker thread that
 * is terminated at the deadline, so neither a long query nor one that never ends touches the
 * server's thread, and the copy holds only the tenant's rows of the exposed tables (copy-worker.ts).
 * The statement timeout counts from the query's start; loading the copy has a limit of its own.
 */
export async function runOnCopy(
  copies: DatabaseCopy,
  request: {
    schema: string;
    tenantId: string;
    tables: readonly SqlTable[];
    sql: string;
    params: unknown[];
    limit: number;
  },
  limits: QueryLimits,
): Promise<QueryResult> {
  const started = process.hrtime.bigint();
  const { archive, wasmModule } = await copies.take();
  const bytes = new Uint8Array(await archive.arrayBuffer());
  const viewed = request.tables.flatMap(({ table, view }) => (view ? [{ table, view }] : []));
  const job: CopyQuery = {
    archive: bytes,
    wasmModule,
    schema: request.schema,
    tenantId: request.tenantId,
    tables: request.tables.map((t) => ({ table: t.table, tenant_column: t.tenant_column ?? 'tenant_id' })),
    views: viewed.map(({ view }) => view.name),
    setup: [
      ...functionStatements(request.schema),
      ...viewed.map(({ table, view }) => viewStatement(request.schema, table, view)),
    ],
    sql: request.sql,
    params: request.params,
    limit: request.limit,
  };
  const worker = new Worker(new URL('./copy-worker.js', import.meta.url), {
    workerData: job,
    transferList: [bytes.buffer],
  });
  const answers: CopyAnswer[] = [];
  let wake: (() => void) | undefined;
  let failure: Error | undefined;
  worker.on('message', (message: CopyAnswer) => {
    answers.push(message);
    wake?.();
  });
  worker.once('error', (err) => {
    failure = err;
    wake?.();
  });
  worker.once('exit', (code) => {
    failure ??= new Error(`the SQL console's worker ended (exit code ${code})`);
    wake?.();
  });
  /** The worker's next message, or undefined once `ms` passed without one. */
  const next = async (ms: number): Promise<CopyAnswer | undefined> => {
    const deadline = Date.now() + ms;
    while (answers.length === 0 && !failure && Date.now() < deadline) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, deadline - Date.now());
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
    const answer = answers.shift();
    if (!answer && failure) throw failure;
    return answer;
  };
  try {
    const ready = await next(PREPARE_MS);
    if (!ready)
      throw new ApiError('unavailable', 'The copy of the database the query would run on took too long to prepare.');
    if ('prepareFailed' in ready) throw new Error(`the SQL console could not prepare its copy: ${ready.prepareFailed}`);
    // The statement's time counts from here: the copy is loaded and cut down to the tenant.
    const answer = 'ready' in ready ? await next(limits.statementTimeoutMs + limits.hostGraceMs) : ready;
    if (!answer || !('ok' in answer))
      throw new ApiError(
        'query_timeout',
        `The query ran past the console's limit of ${limits.statementTimeoutMs} ms (statement timeout) and was stopped.`,
      );
    if (!answer.ok) throw userError(answer.error, false, limits);
    // A query that returned within the deadline but past the statement limit is refused like one stopped there.
    if (answer.query_ms > limits.statementTimeoutMs + limits.hostGraceMs)
      throw new ApiError(
        'query_timeout',
        `The query ran past the console's limit of ${limits.statementTimeoutMs} ms (statement timeout).`,
      );
    return {
      columns: answer.columns,
      rows: answer.rows,
      row_count: answer.rows.length,
      truncated: answer.truncated,
      duration_ms: Number(process.hrtime.bigint() - started) / 1e6,
    };
  } finally {
    await worker.terminate();
  }
}
