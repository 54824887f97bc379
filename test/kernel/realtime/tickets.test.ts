import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { createTicketStore, TICKETS_TABLE } from '../../../kernel/realtime/tickets.js';
import { closeSharingSchema, onPostgres, startKernel, type TestKernel } from '../../support/kernel.js';
import { bootstrapCredentials, login, loginAdmin } from '../../support/identity.js';
import { closed, mintTicket, mustOpen, mustRefuse } from '../../support/realtime.js';

const FIXTURE = { module: 'test/fixtures/realtime-plugin' };
const PLUGINS = ['system', 'identity', 'audit', FIXTURE];

describe('WebSocket tickets', function () {
  this.timeout(120_000);
  let tk: TestKernel;
  let admin: string;

  before(async () => {
    tk = await startKernel({ plugins: PLUGINS });
    admin = await loginAdmin(tk);
  });
  after(() => tk.close());

  it('is redeemed by exactly one of many concurrent attempts', async () => {
    const ticket = await mintTicket(tk, admin, { room: 'race' });
    const store = createTicketStore({ now: () => new Date() });
    const attempts = await Promise.all(
      Array.from({ length: 8 }, () => store.redeem(tk.kernel.database.knex, ticket, new Date())),
    );
    const winners = attempts.filter((a) => a !== null);
    expect(winners).to.have.length(1);
    expect(winners[0]).to.include({ tenantId: 'default', resource: 'race', channel: 'echo' });
  });

  it('records the mint in the audit trail without the ticket', async () => {
    const ticket = await mintTicket(tk, admin, { room: 'audited', channel: 'shout' });
    const trail = await tk.request('GET', '/audit?operation=mintEchoTicket', { token: admin });
    expect(trail.status).to.equal(200);
    const record = trail.body.items.find((r: { resource_id: string }) => r.resource_id === 'audited');
    expect(record, JSON.stringify(trail.body.items)).to.not.equal(undefined);
    expect(JSON.stringify(trail.body)).to.not.contain(ticket);
  });

  it('are purged a minute after they expire', async () => {
    await mintTicket(tk, admin, { room: 'purged' });
    const store = createTicketStore({ now: () => new Date() });
    const knex = tk.kernel.database.knex;
    expect(await store.purge(knex, new Date(Date.now() + 60_000))).to.equal(0);
    expect(await store.purge(knex, new Date(Date.now() + 91_000))).to.be.at.least(1);
    expect(await knex(TICKETS_TABLE).where({ resource: 'purged' })).to.have.length(0);
  });
});

// Two instances on one database need a database server; the embedded one is in-process.
(onPostgres ? describe : describe.skip)(
  'WebSocket tickets across two instances sharing one PostgreSQL schema (needs DATABASE_URL)',
  function () {
    this.timeout(120_000);
    const schema = `t_tickets_${randomBytes(5).toString('hex')}`;
    let one: TestKernel;
    let two: TestKernel;

    before(async () => {
      one = await startKernel({ plugins: PLUGINS }, { schema });
      two = await startKernel({ plugins: PLUGINS }, { schema });
    });
    after(async () => {
      await closeSharingSchema(schema, one, two);
    });

    it('a ticket minted on one instance opens a socket on the other, once', async () => {
      const admin = await loginAdmin(one);
      const ticket = await mintTicket(one, admin, { room: 'shared' });
      const socket = await mustOpen(two, `/echo/ws?room=shared&ticket=${ticket}`);
      expect((await mustRefuse(one, `/echo/ws?room=shared&ticket=${ticket}`)).status).to.equal(401);
      socket.close();
      await closed(socket);
    });

    it("a logout on one instance closes the session's sockets on the other", async () => {
      const session = await login(one, bootstrapCredentials());
      const socket = await mustOpen(
        two,
        `/echo/ws?room=shared&ticket=${await mintTicket(one, session.access_token, { room: 'shared' })}`,
      );
      const closing = closed(socket);
      expect((await one.request('POST', '/auth/logout', { token: session.access_token })).status).to.equal(204);
      expect((await closing).code).to.equal(4401);
    });
  },
);
