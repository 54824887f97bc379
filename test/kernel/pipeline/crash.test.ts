import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createInterface } from 'node:readline';
import knexFactory, { type Knex } from 'knex';
import { fromRoot } from '../../../kernel/paths.js';
import { onPostgres, request, startKernel } from '../../support/kernel.js';
import { untilSealed } from '../../support/sealed.js';

/**
 * The kernel as its own process (node dist/kernel/main.js), killed with SIGKILL: nothing gets
 * to clean up, so what is left in the database is what the transactions guarantee.
 */
interface Child {
  process: ChildProcess;
  url: string;
  exited: Promise<void>;
}

function urlWithSchema(schema: string): string {
  const url = new URL(process.env.DATABASE_URL as string);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return url.toString();
}

async function spawnKernel(schema: string): Promise<Child> {
  const child = spawn(process.execPath, [fromRoot('dist', 'kernel', 'main.js')], {
    env: {
      ...process.env,
      RUNTIME_PROFILE: 'test',
      DATABASE_URL: urlWithSchema(schema),
      PORT: '0',
      RUNTIME_PLUGINS: 'system,audit,logs,components',
      RUNTIME_AUTH_MODE: 'none',
      RUNTIME_LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`kernel exited with ${code}: ${stderr}`)));
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
      try {
        const entry = JSON.parse(line) as { msg?: string; url?: string };
        if (entry.msg === 'serving' && entry.url) resolve(entry.url);
      } catch {
        // not a log line
      }
    });
  });
  return { process: child, url, exited };
}

async function kill(child: Child): Promise<void> {
  child.process.kill('SIGKILL');
  await child.exited;
}

describe('killing the process (SIGKILL)', function () {
  this.timeout(60_000);
  let schema: string;
  let db: Knex;

  before(async function () {
    if (!onPostgres) {
      console.log(
        '      (skipped: needs PostgreSQL to run the kernel as a separate process against; runs when DATABASE_URL is set, as .ci/run does)',
      );
      this.skip();
    }
    schema = `crash_${randomBytes(5).toString('hex')}`;
    db = knexFactory({ client: 'pg', connection: process.env.DATABASE_URL as string, searchPath: [schema] });
    await db.raw('CREATE SCHEMA ??', [schema]);
  });
  after(async () => {
    if (!db) return;
    await db.raw('DROP SCHEMA IF EXISTS ?? CASCADE', [schema]);
    await db.destroy();
  });

  it('during a burst of writes leaves no change without its audit record, and an intact chain', async () => {
    const child = await spawnKernel(schema);
    const answered: string[] = [];
    const burst = Array.from({ length: 300 }, (_, i) =>
      request(child.url, 'POST', '/components', {
        body: { type: 'passthrough', id: `b-${i}`, name: `B ${i}` },
        headers: { 'idempotency-key': `burst-${i}` },
      })
        .then((res) => {
          if (res.status === 201) answered.push(`b-${i}`);
        })
        .catch(() => undefined),
    );
    while (answered.length < 30) await new Promise((r) => setTimeout(r, 5));
    await kill(child);
    await Promise.all(burst);

    const components = (await db('components').where({ tenant_id: 'default' }).pluck('id')) as string[];
    const recorded = (await db('audit_records')
      .where({ tenant_id: 'default', operation: 'createComponent', outcome: 'success' })
      .pluck('resource_id')) as string[];
    const keys = (await db('kernel_idempotency_keys').where({ tenant_id: 'default' }).pluck('key')) as string[];
    expect(components.length).to.be.at.least(answered.length);
    expect(components.length, 'the kill landed before the burst ended').to.be.below(300);
    expect([...recorded].sort()).to.deep.equal([...components].sort());
    expect(keys.map((key) => key.replace('burst-', 'b-')).sort()).to.deep.equal([...components].sort());
    for (const id of answered) expect(components).to.include(id);

    const tk = await startKernel(
      { plugins: ['system', 'audit', 'logs', 'components'], auth: { mode: 'none' } },
      { schema },
    );
    try {
      const verify = await untilSealed(() => tk.request('GET', '/audit/verify?tenant_id=default'));
      expect(verify.body).to.include({ valid: true, first_broken: null });
      expect(verify.body.records).to.equal(components.length);
    } finally {
      await tk.close();
    }
  });

  it('between claiming an idempotency key and committing does not leave the key stuck: a retry with the key completes once', async () => {
    const child = await spawnKernel(schema);
    const created = await request(child.url, 'POST', '/components', {
      body: { type: 'passthrough', id: 'held', name: 'Held' },
    });
    expect(created.status).to.equal(201);

    // Hold the component's row so the action blocks after it has claimed its key.
    const holder = await db.transaction();
    await holder('components').where({ tenant_id: 'default', id: 'held' }).forUpdate().first();
    const inflight = request(child.url, 'POST', '/components/held/start', {
      body: { request_id: 'mid-1', reason: 'crash' },
    }).catch(() => 'killed');
    const holderPid = ((await holder.raw('SELECT pg_backend_pid() AS pid')).rows as Array<{ pid: number }>)[0]!.pid;
    let blocked = false;
    for (let i = 0; i < 500 && !blocked; i++) {
      const waiting = await db.raw(
        'SELECT count(*)::integer AS n FROM pg_stat_activity WHERE ? = ANY(pg_blocking_pids(pid))',
        [holderPid],
      );
      blocked = (waiting.rows as Array<{ n: number }>)[0]!.n > 0;
      if (!blocked) await new Promise((r) => setTimeout(r, 10));
    }
    expect(blocked, 'the action is waiting inside its transaction, key claimed').to.equal(true);
    const claimed = await db.raw(
      "SELECT count(*)::integer AS n FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid WHERE l.locktype = 'advisory' AND l.granted AND ? = ANY(pg_blocking_pids(a.pid))",
      [holderPid],
    );
    expect((claimed.rows as Array<{ n: number }>)[0]!.n).to.equal(1);
    await kill(child);
    expect(await inflight).to.equal('killed');
    await holder.rollback();

    const tk = await startKernel(
      { plugins: ['system', 'audit', 'logs', 'components'], auth: { mode: 'none' } },
      { schema },
    );
    try {
      let retry = await tk.request('POST', '/components/held/start', {
        body: { request_id: 'mid-1', reason: 'crash' },
      });
      // The dead process's transaction is gone once the server notices; until then the key is busy (409, Retry-After).
      for (let i = 0; i < 50 && retry.status === 409; i++) {
        expect(retry.headers.get('retry-after')).to.equal('1');
        await new Promise((r) => setTimeout(r, 100));
        retry = await tk.request('POST', '/components/held/start', { body: { request_id: 'mid-1', reason: 'crash' } });
      }
      expect(retry.status).to.equal(200);
      expect(retry.headers.get('idempotent-replayed')).to.equal(null);
      expect(retry.body.component).to.include({ state: 'running', revision: 2 });
      const again = await tk.request('POST', '/components/held/start', {
        body: { request_id: 'mid-1', reason: 'crash' },
      });
      expect(again.text).to.equal(retry.text);
      expect(again.headers.get('idempotent-replayed')).to.equal('true');
      const successes = await db('audit_records').where({
        tenant_id: 'default',
        operation: 'startComponent',
        outcome: 'success',
      });
      expect(successes).to.have.length(1);
    } finally {
      await tk.close();
    }
  });
});
