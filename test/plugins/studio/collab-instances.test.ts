import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { closeSharingSchema, onPostgres, startKernel, type TestKernel } from '../../support/kernel.js';
import { loginAdmin } from '../../support/identity.js';
import { studioTicket, waitUntil, YClient } from './yjs-client.js';

const PLUGINS = ['system', 'identity', 'audit', 'studio'];

// Two instances on one database need a database server; the embedded one is in-process.
(onPostgres ? describe : describe.skip)(
  'studio collab across two kernels sharing one PostgreSQL schema (needs DATABASE_URL)',
  function () {
    this.timeout(120_000);
    const schema = `t_studio_${randomBytes(5).toString('hex')}`;
    let one: TestKernel;
    let two: TestKernel;
    let admin: string;
    const clients: YClient[] = [];

    before(async () => {
      const config = { plugins: PLUGINS, settings: { studio: { collab: { idle_save_ms: 60_000 } } } };
      one = await startKernel(config, { schema });
      two = await startKernel(config, { schema });
      admin = await loginAdmin(one);
    });
    after(async () => {
      await Promise.all(clients.map((c) => c.close()));
      await closeSharingSchema(schema, one, two);
    });

    async function join(tk: TestKernel, id: string): Promise<YClient> {
      const client = await YClient.join(tk, await studioTicket(tk, admin, id, 'collab'));
      clients.push(client);
      return client;
    }

    it('converges clients on different instances editing one file at once; a late joiner on either gets the merged text; the save equals it', async () => {
      expect(
        (
          await one.request('POST', '/studio/workspaces', {
            token: admin,
            body: { id: 'shared', name: 'shared', files: { 'main.js': 'line 1\nline 2\n' } },
          })
        ).status,
      ).to.equal(201);
      // Both instances join at once: one seeding of the shared document wins.
      const [a, b] = await Promise.all([join(one, 'shared'), join(two, 'shared')]);
      expect(a.text('main.js')).to.equal('line 1\nline 2\n');
      expect(b.text('main.js')).to.equal('line 1\nline 2\n');
      for (let i = 0; i < 5; i++) {
        a.ytext('main.js').insert(0, `a${i} `);
        b.ytext('main.js').insert(b.ytext('main.js').length, ` b${i}`);
      }
      await waitUntil(
        () =>
          a.text('main.js') === b.text('main.js') &&
          /b4/.test(a.text('main.js') ?? '') &&
          /a4/.test(b.text('main.js') ?? ''),
        20_000,
        'convergence across instances',
      );
      const merged = a.text('main.js') as string;
      expect(merged).to.equal('a4 a3 a2 a1 a0 line 1\nline 2\n b0 b1 b2 b3 b4');

      const late = await join(two, 'shared');
      expect(late.text('main.js')).to.equal(merged);
      const lateOnOne = await join(one, 'shared');
      expect(lateOnOne.text('main.js')).to.equal(merged);

      const saved = await b.save();
      expect(saved.saved).to.include({ revision: 2, unchanged: false });
      const files = await one.request('GET', '/studio/workspaces/shared/files?revision=2', { token: admin });
      expect(files.body.files['main.js']).to.equal(merged);
      // The client on the other instance hears of the save.
      await waitUntil(
        () => a.statuses.some((s) => s.saved?.revision === 2),
        10_000,
        'the save notice on the other instance',
      );
    });

    it('takes a PUT on one instance into the document open on the other', async () => {
      expect(
        (
          await one.request('POST', '/studio/workspaces', {
            token: admin,
            body: { id: 'put-across', name: 'put-across', files: { 'main.js': 'old' } },
          })
        ).status,
      ).to.equal(201);
      const b = await join(two, 'put-across');
      expect(
        (
          await one.request('PUT', '/studio/workspaces/put-across/files', {
            token: admin,
            body: { files: { 'main.js': 'new' } },
          })
        ).status,
      ).to.equal(200);
      await waitUntil(() => b.text('main.js') === 'new', 10_000, 'the PUT on the other instance');
    });
  },
);
