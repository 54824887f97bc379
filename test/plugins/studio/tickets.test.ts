import { expect } from 'chai';
import { startKernel, type TestKernel } from '../../support/kernel.js';
import {
  bootstrapCredentials,
  createTenant,
  login,
  loginAdmin,
  mintToken,
  movableClock,
} from '../../support/identity.js';
import { closed, mustOpen, mustRefuse } from '../../support/realtime.js';
import { studioTicket } from './yjs-client.js';

const PLUGINS = ['system', 'identity', 'audit', 'studio'];

describe('studio tickets: one-time, 30 s, bound to subject, tenant, workspace and channel', function () {
  this.timeout(120_000);
  const time = movableClock();
  let tk: TestKernel;
  let admin: string;
  let other: string;

  before(async () => {
    tk = await startKernel({ plugins: PLUGINS }, { clock: time.clock });
    admin = await loginAdmin(tk);
    await createTenant(tk, admin, 'tickets-other');
    other = await mintToken(tk, admin, ['admin'], { tenantId: 'tickets-other' });
    for (const id of ['ws-one', 'ws-two']) {
      expect(
        (
          await tk.request('POST', '/studio/workspaces', {
            token: admin,
            body: { id, name: id, files: { 'main.js': 'result = 1;' } },
          })
        ).status,
      ).to.equal(201);
    }
  });
  after(() => tk?.close());

  it('mints a ticket that expires in 30 s, audited without the ticket', async () => {
    const res = await tk.request('POST', '/studio/tickets', {
      token: admin,
      body: { workspace_id: 'ws-one', channel: 'collab' },
    });
    expect(res.status, res.text).to.equal(201);
    expect(res.body.ticket).to.match(/^wst_/);
    const ttl = Date.parse(res.body.expires_at) - time.clock.now().getTime();
    expect(ttl).to.be.within(25_000, 30_000);
    const records = await tk.kernel.database
      .knex('audit_records')
      .where({ operation: 'mintStudioTicket', resource_id: 'ws-one' });
    expect(records).to.have.length(1);
    expect(JSON.stringify(records)).to.not.contain(res.body.ticket);
    const socket = await mustOpen(tk, `/studio/collab/ws?ticket=${res.body.ticket}`);
    socket.close();
    await closed(socket);
  });

  it("refuses a ticket for a workspace that does not exist, or is another tenant's (404)", async () => {
    expect(
      (await tk.request('POST', '/studio/tickets', { token: admin, body: { workspace_id: 'nope', channel: 'collab' } }))
        .status,
    ).to.equal(404);
    expect(
      (
        await tk.request('POST', '/studio/tickets', {
          token: other,
          body: { workspace_id: 'ws-one', channel: 'terminal' },
        })
      ).status,
    ).to.equal(404);
    expect(
      (
        await tk.request('POST', '/studio/tickets', {
          token: admin,
          body: { workspace_id: 'ws-one', channel: 'shell' },
        })
      ).status,
    ).to.equal(400);
  });

  it('opens one socket once: a reused ticket is refused (401)', async () => {
    const ticket = await studioTicket(tk, admin, 'ws-one', 'terminal');
    const socket = await mustOpen(tk, `/studio/terminal/ws?ticket=${ticket}`);
    const again = await mustRefuse(tk, `/studio/terminal/ws?ticket=${ticket}`);
    expect(again.status).to.equal(401);
    expect(again.body.error.code).to.equal('invalid_credentials');
    socket.close();
    await closed(socket);
  });

  it('refuses an expired ticket (401)', async () => {
    const ticket = await studioTicket(tk, admin, 'ws-one', 'collab');
    time.advance(31);
    const refusal = await mustRefuse(tk, `/studio/collab/ws?ticket=${ticket}`);
    expect(refusal.status).to.equal(401);
    expect(refusal.body.error.code).to.equal('invalid_credentials');
  });

  it('refuses a ticket minted for the other channel (401)', async () => {
    const collab = await studioTicket(tk, admin, 'ws-one', 'collab');
    expect((await mustRefuse(tk, `/studio/terminal/ws?ticket=${collab}`)).status).to.equal(401);
    const terminal = await studioTicket(tk, admin, 'ws-one', 'terminal');
    const refusal = await mustRefuse(tk, `/studio/collab/ws?ticket=${terminal}`);
    expect(refusal.status).to.equal(401);
    expect(refusal.body.error.message).to.contain('another channel');
  });

  it('refuses a ticket presented for another workspace (401)', async () => {
    const ticket = await studioTicket(tk, admin, 'ws-one', 'collab');
    const refusal = await mustRefuse(tk, `/studio/collab/ws?workspace_id=ws-two&ticket=${ticket}`);
    expect(refusal.status).to.equal(401);
    expect(refusal.body.error.message).to.contain('another workspace');
    const right = await mustOpen(
      tk,
      `/studio/collab/ws?workspace_id=ws-two&ticket=${await studioTicket(tk, admin, 'ws-two', 'collab')}`,
    );
    right.close();
    await closed(right);
  });

  it('refuses a ticket presented for another tenant (401)', async () => {
    const ticket = await studioTicket(tk, admin, 'ws-one', 'collab');
    expect((await mustRefuse(tk, `/studio/collab/ws?tenant_id=tickets-other&ticket=${ticket}`)).status).to.equal(401);
  });

  it('refuses a browser Origin that is not allowed (403), before the ticket is spent', async () => {
    const ticket = await studioTicket(tk, admin, 'ws-one', 'terminal');
    const refusal = await mustRefuse(tk, `/studio/terminal/ws?ticket=${ticket}`, {
      headers: { origin: 'https://evil.example' },
    });
    expect(refusal.status).to.equal(403);
    const socket = await mustOpen(tk, `/studio/terminal/ws?ticket=${ticket}`, {
      headers: { origin: 'http://127.0.0.1:3000' },
    });
    socket.close();
    await closed(socket);
  });

  it('refuses a plain GET of a socket route (426) and one without a ticket (401)', async () => {
    expect((await tk.request('GET', '/studio/collab/ws', { token: admin })).status).to.equal(426);
    expect((await mustRefuse(tk, '/studio/collab/ws')).status).to.equal(401);
  });

  it('closes the collab and terminal sockets of a session when it logs out (4401)', async () => {
    const session = await login(tk, bootstrapCredentials());
    const collab = await mustOpen(
      tk,
      `/studio/collab/ws?ticket=${await studioTicket(tk, session.access_token, 'ws-one', 'collab')}`,
    );
    const terminal = await mustOpen(
      tk,
      `/studio/terminal/ws?ticket=${await studioTicket(tk, session.access_token, 'ws-one', 'terminal')}`,
    );
    const closings = [closed(collab), closed(terminal)];
    expect((await tk.request('POST', '/auth/logout', { token: session.access_token })).status).to.equal(204);
    for (const closing of closings) expect((await closing).code).to.equal(4401);
  });

  it('closes the sockets of an API token when it is revoked (4401)', async () => {
    const secret = await mintToken(tk, admin, ['builder'], { name: 'revoked-studio' });
    const socket = await mustOpen(
      tk,
      `/studio/terminal/ws?ticket=${await studioTicket(tk, secret, 'ws-one', 'terminal')}`,
    );
    const closing = closed(socket);
    const tokens = await tk.request('GET', '/api-tokens', { token: admin });
    const id = tokens.body.items.find((t: any) => t.name === 'revoked-studio').id;
    expect((await tk.request('DELETE', `/api-tokens/${id}`, { token: admin })).status).to.equal(204);
    expect((await closing).code).to.equal(4401);
  });
});
