import type { DatabaseCopy } from '../../../kernel/plugin/api.js';

type WasmModule = Awaited<ReturnType<DatabaseCopy['take']>>['wasmModule'];

/** What the host sends the copy worker: the copy, the tenant it is cut down to, and the one query. */
export interface CopyQuery {
  /** The data directory archive (kernel/db/copy.ts), transferred, not copied. */
  archive: Uint8Array;
  wasmModule: WasmModule | undefined;
  schema: string;
  tenantId: string;
  /** The tables the console exposes, each with its tenant column. */
  tables: Array<{ table: string; tenant_column: string }>;
  /** The readable views made by `setup`, granted to the query's role like the tables. */
  views: string[];
  /** Statements run as the copy's superuser before the query (the views and their functions). */
  setup: string[];
  sql: string;
  params: unknown[];
  limit: number;
}

export type CopyAnswer =
  /** The copy is loaded and cut down to the tenant: the query starts now (its time limit too). */
  | { ready: true }
  /** The copy could not be loaded or cut down to the tenant (no fault of the query's). */
  | { prepareFailed: string }
  | {
      ok: true;
      columns: Array<{ name: string; type: string; type_oid: number }>;
      rows: unknown[][];
      truncated: boolean;
      query_ms: number;
    }
  | { ok: false; error: { code: string; message: string; position?: number } };
