import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { expect } from 'chai';
import { PROJECT_ROOT } from '../../../kernel/paths.js';
import { onPostgres, request, startKernel, type TestKernel } from '../../support/kernel.js';
import { killIfRunning, spawnProcess, untilServing, type RunningServer } from '../../support/process.js';
import { createStream, publish } from './support.js';
import { until } from '../../support/poll.js';

const LEASE_MS = 2000;

/** The step under test: a script that parses the body and adds a field. */
const STEP =
  process.env.WF_FAULT_STEP === 'transform'
    ? { type: 'json.transform', config: { set: { doubled: true } } }
    : {
        type: 'script',
        config: {
          source: 'const v = service.json.decode(input.body); service.route.push({ ...v, doubled: v.n * 2 });',
        },
      };

/**
 * Faults on PostgreSQL: workflow instances in child processes, killed with SIGKILL. The test's
 * own kernel (without the workflows plugin, so it runs no workers) publishes and reads.
 */
(onPostgres ? describe : describe.skip)(
  'workflows under faults (PostgreSQL, child processes killed with SIGKILL)',
  function () {
    this.timeout(300_000);
    const schema = `t_wf_${randomBytes(5).toString('hex')}`;
    let tk: TestKernel;
    const children: RunningServer[] = [];

    function spawnChild(): Promise<RunningServer> {
      const env = {
        ...process.env,
        WORKFLOW_TEST_SCHEMA: schema,
        WORKFLOW_TEST_LEASE_MS: String(LEASE_MS),
        RUNTIME_LOG_LEVEL: 'info',
      };
      const server = untilServing(
        spawnProcess(
          process.execPath,
          [join(PROJECT_ROOT, 'dist', 'test', 'plugins', 'workflows', 'child-kernel.js')],
          env,
        ),
      );
      return server.then((s) => {
        children.push(s);
        return s;
      });
    }

    before(async () => {
      // No components plugin here: its supervisor is a keyed job, and every instance running a keyed
      // job counts in the fair share of every keyed job, so this kernel (which runs no workers)
      // would leave the children half of the workflow's partitions each.
      tk = await startKernel(
        { plugins: ['system', 'audit', 'logs', 'codecs', 'streams'], auth: { mode: 'none' } },
        { schema },
      );
    });
    after(async () => {
      for (const c of children) killIfRunning(c.pid);
      await tk?.kernel.database.knex.raw('DROP SCHEMA IF EXISTS ?? CASCADE', [schema]).catch(() => undefined);
      await tk?.close();
    });
    const db = () => tk.kernel.database.knex;

    async function createWorkflow(child: RunningServer, id: string, input: string, output: string): Promise<void> {
      const res = await request(child.url, 'POST', '/workflows', {
        body: {
          id,
          name: id,
          input: { stream: input },
          steps: [STEP],
          sinks: [{ type: 'stream.publish', config: { stream: output } }],
          on_error: { max_attempts: 5, backoff_ms: 100 },
          batch_size: 50,
        },
      });
      expect(res.status, res.text).to.equal(201);
      const deployed = await request(child.url, 'POST', `/workflows/${id}/deploy`, {
        body: { request_id: `deploy-${id}` },
      });
      expect(deployed.status, deployed.text).to.equal(200);
    }

    /** Per input message of `input`: its outputs in `output` and its processed deliveries for `workflow`. */
    async function tally(
      input: string,
      output: string,
      workflow: string,
    ): Promise<Array<{ id: string; outputs: number; processed: number; dead: number }>> {
      const result = await db().raw(
        `SELECT i.id,
              (SELECT count(*) FROM streams_messages o WHERE o.tenant_id = i.tenant_id AND o.stream = ? AND o.headers->>'x-workflow-source' = i.id)::int AS outputs,
              (SELECT count(*) FROM streams_deliveries d WHERE d.tenant_id = i.tenant_id AND d.message_id = i.id AND d.workflow = ? AND d.status = 'processed')::int AS processed,
              (SELECT count(*) FROM streams_deliveries d WHERE d.tenant_id = i.tenant_id AND d.message_id = i.id AND d.workflow = ? AND d.status = 'dead')::int AS dead
         FROM streams_messages i WHERE i.tenant_id = 'default' AND i.stream = ? ORDER BY i.id`,
        [output, workflow, workflow, input],
      );
      return result.rows;
    }

    it('SIGKILLed repeatedly during a burst, a stream → script → stream workflow leaves exactly one output and one successful delivery per input', async () => {
      await createStream(tk, 'eo-in', 4);
      await createStream(tk, 'eo-out', 2);
      let child = await spawnChild();
      await createWorkflow(child, 'exactly-once', 'eo-in', 'eo-out');

      const total = 1500;
      let kills = 0;
      const publishing = (async () => {
        for (let i = 0; i < total; i += 50) {
          await publish(
            tk,
            'eo-in',
            Array.from({ length: 50 }, (_, j) => ({ key: `k${(i + j) % 97}`, value: { n: i + j } })),
          );
          await new Promise((r) => setTimeout(r, 40));
        }
      })();
      // Kill the instance while it works, four times; each time start a fresh one.
      for (let round = 0; round < 4; round++) {
        await until(
          async () =>
            Number((await db()('streams_deliveries').where({ workflow: 'exactly-once' }).count('* as n'))[0]?.n) >
            round * 150,
          60_000,
          { what: 'some progress before the kill' },
        );
        await new Promise((r) => setTimeout(r, 100 + Math.floor(Math.random() * 300)));
        process.kill(child.pid, 'SIGKILL');
        await child.exited;
        kills += 1;
        child = await spawnChild();
      }
      await publishing;
      const rows = await until(
        async () => {
          const t = await tally('eo-in', 'eo-out', 'exactly-once');
          return t.length === total && t.every((r) => r.processed >= 1) && t;
        },
        120_000,
        { what: 'every input processed' },
      );
      // Paused first, so its partitions do not count in the next test's fair shares whatever happens below.
      expect((await request(child.url, 'POST', '/workflows/exactly-once/pause', { body: {} })).status).to.equal(200);
      expect(kills).to.equal(4);
      expect(
        rows.filter((r) => r.outputs !== 1),
        'inputs without exactly one output',
      ).to.deep.equal([]);
      expect(
        rows.filter((r) => r.processed !== 1),
        'inputs without exactly one processed delivery',
      ).to.deep.equal([]);
      // A failed attempt that a retry then processed is allowed (a script over its deadline on a busy machine); a dead one is not.
      expect(rows.filter((r) => r.dead !== 0)).to.deep.equal([]);
      const sample = await db()('streams_messages').where({ tenant_id: 'default', stream: 'eo-out' }).first();
      expect(JSON.parse(Buffer.from(sample.body).toString('utf8'))).to.have.property('doubled');
      const runs = await db()('workflows_runs')
        .where({ tenant_id: 'default', workflow_id: 'exactly-once' })
        .count('* as n');
      expect(Number(runs[0]?.n)).to.equal(total);
      process.kill(child.pid, 'SIGTERM');
      await child.exited;
    });

    it('two instances share the partitions of one workflow; killing one moves its partitions to the other within the lease time', async () => {
      await createStream(tk, 'sh-in', 4);
      await createStream(tk, 'sh-out', 1);
      const a = await spawnChild();
      const b = await spawnChild();
      await createWorkflow(a, 'shared', 'sh-in', 'sh-out');
      const holders = async () =>
        (await db()('kernel_leases')
          .where({ name: 'workflows.worker' })
          .andWhere('expires_at', '>', db().fn.now())
          .andWhere('key', 'like', '%"shared"%')
          .select('key', 'holder')) as Array<{ key: string; holder: string }>;
      const pidOf = (holder: string) => Number(holder.split('/')[1]);
      await until(
        async () => {
          const h = await holders();
          const pids = new Set(h.map((x) => pidOf(x.holder)));
          return h.length === 4 && pids.has(a.pid) && pids.has(b.pid);
        },
        60_000,
        { what: 'both instances hold partitions' },
      );
      const before = await publish(
        tk,
        'sh-in',
        Array.from({ length: 40 }, (_, i) => ({ key: `s${i}`, value: { n: i } })),
      );
      await until(
        async () =>
          (await tally('sh-in', 'sh-out', 'shared')).filter((r) => r.processed === 1).length === before.length,
        60_000,
        { what: 'the first burst processed by both' },
      );
      const byInstance = await db()('workflows_runs').where({ workflow_id: 'shared' }).count('* as n');
      expect(Number(byInstance[0]?.n)).to.equal(40);

      const killedAt = Date.now();
      process.kill(a.pid, 'SIGKILL');
      await a.exited;
      await until(
        async () => {
          const h = await holders();
          return h.length === 4 && h.every((x) => pidOf(x.holder) === b.pid);
        },
        30_000,
        { what: 'all four partitions held by the survivor' },
      );
      const moved = Date.now() - killedAt;
      // The lease is 2 s; the presence count (same lease) must lapse too before the survivor takes more than its share.
      expect(moved).to.be.below(LEASE_MS * 4 + 2000);
      const after = await publish(
        tk,
        'sh-in',
        Array.from({ length: 40 }, (_, i) => ({ key: `t${i}`, value: { n: i } })),
      );
      await until(
        async () =>
          (await tally('sh-in', 'sh-out', 'shared')).filter((r) => r.processed === 1).length ===
          before.length + after.length,
        60_000,
        { what: 'the second burst processed by the survivor' },
      );
      const rows = await tally('sh-in', 'sh-out', 'shared');
      expect(rows.filter((r) => r.outputs !== 1 || r.processed !== 1)).to.deep.equal([]);
      console.log(`      partitions moved ${moved} ms after the kill (lease ${LEASE_MS} ms)`);
      process.kill(b.pid, 'SIGTERM');
      await b.exited;
    });
  },
);
