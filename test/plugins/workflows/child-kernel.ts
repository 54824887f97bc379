/**
 * A kernel in a child process for the workflow fault tests: the test profile on PostgreSQL in
 * the schema named by WORKFLOW_TEST_SCHEMA (or the embedded database in WORKFLOW_TEST_DATA_DIR), no authentication, fast worker settings. It prints
 * one JSON line `{"msg":"serving","url","pid"}` once it serves. A test kills it with SIGKILL.
 */
import { loadConfig } from '../../../kernel/config/load.js';
import { createKernel } from '../../../kernel/boot.js';

const env = { ...process.env };
const url = env.DATABASE_URL;
const schema = env.WORKFLOW_TEST_SCHEMA;
// WORKFLOW_TEST_DATA_DIR instead: the embedded database in that directory.
const dataDir = env.WORKFLOW_TEST_DATA_DIR;
if (!dataDir && (!url || !schema))
  throw new Error('DATABASE_URL and WORKFLOW_TEST_SCHEMA (or WORKFLOW_TEST_DATA_DIR) are required');
delete env.DATABASE_URL;
delete env.PORT;
delete env.RUNTIME_PLUGINS;
const leaseMs = Number(env.WORKFLOW_TEST_LEASE_MS ?? 2000);
const config = loadConfig({
  profile: 'test',
  env,
  overrides: {
    database: dataDir ? { data_dir: dataDir } : { url, schema },
    auth: { mode: 'none' },
    // Presence leases too: a killed instance must stop counting towards the fair share quickly.
    jobs: { lease_ms: leaseMs },
    plugins: ['system', 'audit', 'logs', 'components', 'codecs', 'streams', 'workflows'],
    settings: { workflows: { poll_ms: 50, lease_ms: leaseMs } },
  },
});
const kernel = await createKernel({ config });
const { url: served } = await kernel.listen();
process.stdout.write(`${JSON.stringify({ msg: 'serving', url: served, pid: process.pid })}\n`);
const stop = (): void =>
  void kernel.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
