import type { WasmModule } from './pglite-code.js';

/**
 * Copies of the embedded database, for work that must not run on the server's own instance:
 * PGlite runs on the server's thread with one connection, so a query that must be cancellable at
 * a deadline, or bound to one tenant, runs on a copy in a worker thread instead (the SQL console).
 * On a PostgreSQL server there is nothing to copy: a second session does that work.
 */
export interface DatabaseCopy {
  /** True on the embedded database. */
  readonly available: boolean;
  /**
   * The data directory as the tar archive PGlite's `loadDataDir` takes, taken between two of the
   * server's statements: an instance made from it recovers as after a crash, with every committed
   * transaction and none of the others. With it, PGlite's module compiled once in this process,
   * which a worker instantiates instead of compiling its own.
   */
  take(): Promise<{ archive: Blob; wasmModule: WasmModule | undefined }>;
}

export const noDatabaseCopy: DatabaseCopy = {
  available: false,
  take: () =>
    Promise.reject(new Error('only the embedded database is copied; a PostgreSQL server is queried directly')),
};
