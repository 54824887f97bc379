import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { expect } from 'chai';
import knexFactory from 'knex';
import { PROJECT_ROOT } from '../../../kernel/paths.js';
import { onPostgres, request } from '../../support/kernel.js';
import { until } from '../../support/poll.js';
import { freshDataDir, killIfRunning, spawnProcess, untilServing, type RunningServer } from '../../support/process.js';

/** Long enough that waiting for the killed process's leases to lapse would fail the test. */
const LEASE_MS = 60_000;

/**
 * A process started after a SIGKILL knows the previous holder of every lease is gone, and takes
 * the leases over at once instead of waiting LEASE_MS for them to lapse: on the embedded database
 * because only one process can use the data directory (its lock); on PostgreSQL because the
 * killed process's liveness lock went with its sessions (kernel/jobs/holder-liveness.ts).
 */
for (const database of onPostgres ? (['embedded', 'PostgreSQL'] as const) : (['embedded'] as const))
  describe(`workflows on ${database === 'embedded' ? 'the embedded database' : 'PostgreSQL'}: a restart after SIGKILL`, function () {
    this.timeout(180_000);
    const dataDir = freshDataDir();
    const schema = `t_rs_${randomBytes(5).toString('hex')}`;
    const children: RunningServer[] = [];
    after(async () => {
      for (const c of children) killIfRunning(c.pid);
      if (database === 'embedded') return;
      const db = knexFactory({ client: 'pg', connection: String(process.env.DATABASE_URL) });
      await db.raw('DROP SCHEMA IF EXISTS ?? CASCADE', [schema]).catch(() => undefined);
      await db.destroy();
    });

    async function spawnChild(): Promise<RunningServer> {
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        WORKFLOW_TEST_LEASE_MS: String(LEASE_MS),
        RUNTIME_LOG_LEVEL: 'info',
      };
      if (database === 'embedded') {
        env.WORKFLOW_TEST_DATA_DIR = dataDir;
        delete env.DATABASE_URL;
      } else env.WORKFLOW_TEST_SCHEMA = schema;
      const child = await untilServing(
        spawnProcess(
          process.execPath,
          [join(PROJECT_ROOT, 'dist', 'test', 'plugins', 'workflows', 'child-kernel.js')],
          env,
        ),
      );
      children.push(child);
      return child;
    }

    async function call(child: RunningServer, method: string, path: string, body?: unknown): Promise<any> {
      const res = await request(child.url, method, path, body === undefined ? {} : { body });
      expect(res.status, `${method} ${path}: ${res.text}`).to.be.lessThan(300);
      return res.body;
    }

    async function outputs(child: RunningServer): Promise<number> {
      const body = await call(child, 'GET', '/streams/er-out/messages?limit=100');
      return body.items.length;
    }

    it('has outputs flowing again within 3 s of the new process serving, well before the leases would lapse', async () => {
      let child = await spawnChild();
      await call(child, 'POST', '/streams', { id: 'er-in', name: 'er-in' });
      await call(child, 'POST', '/streams', { id: 'er-out', name: 'er-out' });
      await call(child, 'POST', '/workflows', {
        id: 'er',
        name: 'er',
        input: { stream: 'er-in' },
        steps: [{ type: 'json.transform', config: { set: { seen: true } } }],
        sinks: [{ type: 'stream.publish', config: { stream: 'er-out' } }],
      });
      await call(child, 'POST', '/workflows/er/deploy', { request_id: 'deploy-er' });
      await call(child, 'POST', '/streams/er-in/messages', { messages: [{ value: { n: 1 } }] });
      await until(async () => (await outputs(child)) === 1, 30_000, { what: 'the first output' });

      process.kill(child.pid, 'SIGKILL');
      await child.exited;
      child = await spawnChild();
      await call(child, 'POST', '/streams/er-in/messages', { messages: [{ value: { n: 2 } }] });
      const serving = Date.now();
      await until(async () => (await outputs(child)) === 2, LEASE_MS, { what: 'the output after the restart' });
      const tookMs = Date.now() - serving;
      expect(tookMs, 'from serving again to the next output (ms)').to.be.lessThan(3000);
    });
  });
