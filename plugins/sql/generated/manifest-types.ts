// Generated from manifests/sql.json by `npm run types:generate`; do not edit.
// test/kernel/manifest/generated-types.test.ts fails when it differs from what the manifest generates.
// Input types read as the kernel leaves the input after validation: fields with a default are present.

/** `settings.sql`, as setup receives them: checked, defaults filled in. */
export type Settings = {
  /** Queries one tenant may have running at once, counted across every kernel instance; one more is 429 too_many_queries. */
  max_concurrent_per_tenant: number;
  /** The database's statement timeout for a console query (at most 5 s). */
  statement_timeout_ms: number;
  /** How long past the statement timeout the kernel waits before it cancels the backend itself (pg_cancel_backend). */
  host_grace_ms: number;
  /** Most rows one query returns; more set truncated. */
  max_rows: number;
};

export type QueryRequest = {
  /** One query (SELECT, VALUES, TABLE or WITH … SELECT); parameters as $1, $2, … */
  sql: string;
  /** Values for $1, $2, … */
  params?: (string | number | boolean | null)[];
  /** Most rows to return (at most the console's cap). */
  limit?: number;
};

export type QueryResult = {
  columns: {
    name: string;
    /** The type's name as PostgreSQL writes it: integer, text, jsonb, timestamp with time zone. */
    type: string;
    type_oid: number;
  }[];
  /** One array of values per row, in column order. */
  rows: unknown[][];
  row_count: number;
  /** More rows followed than the limit. */
  truncated: boolean;
  duration_ms: number;
};

/** Each operation's input by operationId, for `operationHandlers<Operations>` (kernel/plugin/api.ts). */
export type Operations = {
  runSqlQuery: {
    params: Record<string, never>;
    query: Record<string, never>;
    body: {
      /** One query (SELECT, VALUES, TABLE or WITH … SELECT); parameters as $1, $2, … */
      sql: string;
      /** Values for $1, $2, … */
      params?: (string | number | boolean | null)[];
      /** Most rows to return (at most the console's cap). */
      limit?: number;
      /** Tenant to act in; defaults to the caller's tenant. `*` (reads of lists only, with runtime:account:admin) lists every tenant's rows. */
      tenant_id?: string;
    };
    tenant: true;
    authenticated: true;
  };
};
