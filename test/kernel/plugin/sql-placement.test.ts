import { expect } from 'chai';
import { pluginSources, sqlLines } from './support/plugin-sources.js';

/**
 * SQL lives in the files whose job is data access, so a query is found, reviewed and indexed in
 * one place per plugin, and handlers, services and index.ts read as what they decide, calling
 * stores. A plugin's hand-written SQL — knex raw SQL, a query builder started on a handle with a
 * table, the schema builder, SQL text in a string (support/plugin-sources.ts, `isSqlLine`) —
 * appears only in:
 *  - its stores: `store.ts`, `store/…`, `*-store.ts`;
 *  - its migrations: `migrations/…`;
 *  - its backends: `*-backend.ts` (a storage engine behind an interface, e.g. streams on PostgreSQL);
 *  - the queries it contributes to another plugin's extension point, which take a database
 *    handle by contract and are queries by nature: its SQL console tables (`sql-tables.ts`),
 *    alert signals (`*-signal.ts`, `*-signals.ts`), dashboard figures
 *    (`dashboard-section.ts`, `dashboard/…`), the check of what depends on a resource
 *    (`dependents.ts`) and its resources' export and import for promotion (`migration-resource.ts`).
 */
const DATA_ACCESS =
  /(?:^|\/)(?:store\.ts|store\/|[\w-]+-store\.ts|migrations\/|[\w-]+-backend\.ts|sql-tables\.ts|[\w-]+-signals?\.ts|dashboard-section\.ts|dashboard\/|dependents\.ts|migration-resource\.ts)/;

/**
 * Files that hold SQL without a data-access name, each with why. An entry goes once its SQL has
 * moved: the last test fails while an entry names a file without SQL (or gone).
 */
const ALLOWED: Record<string, string> = {
  // The SQL console's job is the database itself: running a tenant's statement as its own role,
  // keeping those roles, their grants and the readable views, and the per-tenant query slots.
  // These modules are its backend: the statements they run are the feature, not data access
  // beside it.
  'plugins/sql/run-query.ts': "the SQL console's statement execution (its backend)",
  'plugins/sql/roles.ts': "the SQL console's tenant roles and grants (its backend)",
  'plugins/sql/views.ts': "the SQL console's readable views (its backend)",
  'plugins/sql/slots.ts': "the SQL console's per-tenant query slots (its backend)",
  'plugins/sql/statement.ts': "the SQL console's type-name lookup for a result (its backend)",
  'plugins/sql/embedded/copy-worker.ts': "the SQL console's cut-down copy on the embedded database (its backend)",
  // Parts of the streams plugin's NATS backend (nats-backend.ts): the retention cuts it runs on
  // its message index. Named for the backend's parts, not *-backend.ts, as nats-reads and nats-retention are.
  'plugins/streams/nats-age-cut.ts': "the NATS backend's retention cut by age",
  'plugins/streams/nats-count-cut.ts': "the NATS backend's retention cut by count",
  // The streams plugin's contribution to `workflows.streams`: the offsets and deliveries a
  // workflow worker's transaction reads and writes, queries by that contract (like a signal).
  // The WHERE clause of GET /messages that both backends share (postgres-backend.ts, nats-index-store.ts).
  'plugins/streams/message-query.ts': 'the message filter both streams backends share',
  'plugins/streams/workflow-streams.ts': "a query contribution to workflows' `workflows.streams` point",
  // The BPMN stores' write batching (store/ imports it): it belongs in store/batch.ts, but the
  // BPMN service that imports it too was being changed by others at the time (issue 26).
  'plugins/bpmn/batch.ts': "the BPMN stores' write batching, to move to store/batch.ts",
};

const offending = pluginSources.filter((s) => !DATA_ACCESS.test(s.inside) && !(s.path in ALLOWED)).flatMap(sqlLines);

describe('SQL lives only in stores, migrations, backends and query contributions', () => {
  it('finds SQL in the plugins (the detector sees it)', () => {
    expect(pluginSources.filter((s) => sqlLines(s).length > 0).length).to.be.greaterThan(30);
  });

  it('has no SQL in handlers, services, index.ts or any other file', () => {
    expect(offending, `move these into the plugin's store:\n${offending.join('\n')}`).to.deep.equal([]);
  });

  it('keeps the allow-list honest: every file on it exists and still holds SQL', () => {
    const stale = Object.keys(ALLOWED).filter((path) => {
      const source = pluginSources.find((s) => s.path === path);
      return !source || sqlLines(source).length === 0;
    });
    expect(stale, `remove from ALLOWED:\n${stale.join('\n')}`).to.deep.equal([]);
  });
});
