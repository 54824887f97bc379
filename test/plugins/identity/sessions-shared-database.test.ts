import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { closeSharingSchema, onPostgres, startKernel, type TestKernel } from '../../support/kernel.js';
import { bootstrapCredentials, login } from '../../support/identity.js';

const PLUGINS = ['system', 'identity', 'audit', 'components'];

// Two instances on one database need a database server; the embedded one is in-process.
(onPostgres ? describe : describe.skip)(
  'sessions across two instances sharing one PostgreSQL schema (needs DATABASE_URL)',
  () => {
    const schema = `t_shared_${randomBytes(5).toString('hex')}`;
    let one: TestKernel;
    let two: TestKernel;

    before(async () => {
      one = await startKernel({ plugins: PLUGINS }, { schema });
      two = await startKernel({ plugins: PLUGINS }, { schema });
    });
    after(async () => {
      await closeSharingSchema(schema, one, two);
    });

    it("boots the second instance on the first one's bootstrap without creating a second admin", async () => {
      const admins = await one.kernel.database.knex('identity_users').where({ tenant_id: 'default' });
      expect(admins).to.have.length(1);
    });

    it('POST /auth/logout on one instance refuses the token on the other at the next request', async () => {
      const session = await login(one, bootstrapCredentials());
      expect((await two.request('GET', '/components', { token: session.access_token })).status).to.equal(200);
      expect((await one.request('POST', '/auth/logout', { token: session.access_token })).status).to.equal(204);
      const res = await two.request('GET', '/components', { token: session.access_token });
      expect(res.status).to.equal(401);
      expect(res.body.error.code).to.equal('invalid_credentials');
    });

    it('POST /auth/logout-all on one instance ends every session on the other', async () => {
      const a = await login(one, bootstrapCredentials());
      const b = await login(two, bootstrapCredentials());
      expect((await one.request('GET', '/components', { token: b.access_token })).status).to.equal(200);
      expect((await two.request('GET', '/components', { token: a.access_token })).status).to.equal(200);
      expect((await two.request('POST', '/auth/logout-all', { token: b.access_token })).status).to.equal(204);
      expect((await one.request('GET', '/components', { token: a.access_token })).status).to.equal(401);
      expect((await one.request('GET', '/components', { token: b.access_token })).status).to.equal(401);
      expect(
        (await two.request('POST', '/auth/refresh', { body: { refresh_token: a.refresh_token } })).status,
      ).to.equal(401);
    });

    it('a refresh race split across both instances has exactly one winner', async () => {
      const session = await login(one, bootstrapCredentials());
      const results = await Promise.all(
        [one, two, one, two].map((tk) =>
          tk.request('POST', '/auth/refresh', { body: { refresh_token: session.refresh_token } }),
        ),
      );
      expect(results.filter((r) => r.status === 200)).to.have.length(1);
      expect(results.filter((r) => r.status === 401)).to.have.length(3);
    });
  },
);
