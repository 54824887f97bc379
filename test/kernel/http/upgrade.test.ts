import { createHash } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { expect } from 'chai';
import { startKernel, type TestKernel } from '../../support/kernel.js';
import { bootstrapCredentials, createUser, login, loginAdmin, movableClock } from '../../support/identity.js';
import { closed, inbox, mintTicket, mustOpen, mustRefuse, shut } from '../../support/realtime.js';

const FIXTURE = { module: 'test/fixtures/realtime-plugin' };
const PLUGINS = ['system', 'identity', 'audit', 'agent', FIXTURE];

describe('WebSocket routes (the echo fixture over real sockets)', function () {
  // Booting the embedded database takes long on a busy machine.
  this.timeout(120_000);
  const time = movableClock();
  let tk: TestKernel;
  let admin: string;

  before(async () => {
    tk = await startKernel(
      {
        plugins: PLUGINS,
        http: { websocket: { max_payload_bytes: 1024, max_sockets_per_subject: 2, ping_interval_ms: 100 } },
      },
      { clock: time.clock },
    );
    admin = await loginAdmin(tk);
  });
  after(() => tk.close());

  it('opens with a ticket minted over the API, serves its subject, tenant and room, and echoes', async () => {
    const ticket = await mintTicket(tk, admin, { room: 'lobby' });
    const socket = await mustOpen(tk, `/echo/ws?room=lobby&ticket=${ticket}`);
    const messages = inbox(socket);
    const welcome = JSON.parse((await messages.next()).data.toString());
    const me = await tk.request('GET', '/auth/sessions', { token: admin });
    expect(welcome).to.deep.equal({
      welcome: { subject: me.body.items[0].subject_id, tenant: 'default', room: 'lobby' },
    });
    socket.send('hello');
    expect((await messages.next()).data.toString()).to.equal('hello');
    socket.send(Buffer.from([0, 1, 2, 255]));
    const binary = await messages.next();
    expect(binary.binary).to.equal(true);
    expect([...binary.data]).to.deep.equal([0, 1, 2, 255]);
    await shut(socket);
  });

  it("stores only the ticket's SHA-256, and marks it used", async () => {
    const ticket = await mintTicket(tk, admin, { room: 'hashed' });
    const rows = await tk.kernel.database.knex('kernel_socket_tickets').where({ resource: 'hashed' });
    expect(rows).to.have.length(1);
    expect(JSON.stringify(rows)).to.not.contain(ticket);
    expect(rows[0].ticket_hash).to.equal(createHash('sha256').update(ticket).digest('hex'));
    expect(rows[0]).to.include({ tenant_id: 'default', channel: 'echo', used_at: null });
    await shut(await mustOpen(tk, `/echo/ws?room=hashed&ticket=${ticket}`));
    const used = await tk.kernel.database.knex('kernel_socket_tickets').where({ resource: 'hashed' }).first();
    expect(used.used_at).to.not.equal(null);
  });

  it('refuses a ticket used a second time', async () => {
    const ticket = await mintTicket(tk, admin, { room: 'once' });
    await shut(await mustOpen(tk, `/echo/ws?room=once&ticket=${ticket}`));
    const again = await mustRefuse(tk, `/echo/ws?room=once&ticket=${ticket}`);
    expect(again.status).to.equal(401);
    expect(again.body.error).to.include({ code: 'invalid_credentials', status: 401 });
  });

  it('refuses an expired ticket (30 s)', async () => {
    const fresh = await mintTicket(tk, admin, { room: 'timely' });
    const stale = await mintTicket(tk, admin, { room: 'timely' });
    // The clock moves on with real time too: 25 s leaves a loaded machine 5 s to mint and use the ticket.
    time.advance(25);
    await shut(await mustOpen(tk, `/echo/ws?room=timely&ticket=${fresh}`));
    time.advance(6);
    const refusal = await mustRefuse(tk, `/echo/ws?room=timely&ticket=${stale}`);
    expect(refusal.status).to.equal(401);
    expect(refusal.body.error.code).to.equal('invalid_credentials');
  });

  it('refuses a ticket minted for another resource, channel or tenant, and spends it', async () => {
    const otherRoom = await mintTicket(tk, admin, { room: 'room-a' });
    expect((await mustRefuse(tk, `/echo/ws?room=room-b&ticket=${otherRoom}`)).status).to.equal(401);
    expect(
      (await mustRefuse(tk, `/echo/ws?room=room-a&ticket=${otherRoom}`)).status,
      'a refused ticket is used up',
    ).to.equal(401);

    const shout = await mintTicket(tk, admin, { room: 'room-a', channel: 'shout' });
    const wrongChannel = await mustRefuse(tk, `/echo/ws?room=room-a&ticket=${shout}`);
    expect(wrongChannel.status).to.equal(401);
    expect(wrongChannel.body.error.message).to.contain('another channel');
    const shoutTicket = await mintTicket(tk, admin, { room: 'room-a', channel: 'shout' });
    const shouting = await mustOpen(tk, `/echo/shout?room=room-a&ticket=${shoutTicket}`);
    const replies = inbox(shouting);
    shouting.send('quiet');
    expect((await replies.next()).data.toString()).to.equal('QUIET');
    await shut(shouting);

    const tenantTicket = await mintTicket(tk, admin, { room: 'room-a' });
    const otherTenant = await mustRefuse(tk, `/echo/ws?room=room-a&tenant_id=elsewhere&ticket=${tenantTicket}`);
    expect(otherTenant.status).to.equal(401);
  });

  it('answers 401 without a ticket or with a malformed one, before any upgrade', async () => {
    const missing = await mustRefuse(tk, '/echo/ws?room=lobby');
    expect(missing.status).to.equal(401);
    expect(missing.body.error.code).to.equal('authentication_required');
    const malformed = await mustRefuse(tk, '/echo/ws?room=lobby&ticket=wst_nope');
    expect(malformed.status).to.equal(401);
    expect(malformed.body.error.code).to.equal('invalid_credentials');
    expect(malformed.headers['x-request-id']).to.be.a('string');
  });

  it('refuses a foreign Origin with 403 before the upgrade, and leaves the ticket unused', async () => {
    const ticket = await mintTicket(tk, admin, { room: 'origins' });
    const foreign = await mustRefuse(tk, `/echo/ws?room=origins&ticket=${ticket}`, { origin: 'https://evil.example' });
    expect(foreign.status).to.equal(403);
    expect(foreign.body.error.code).to.equal('forbidden');
    await shut(await mustOpen(tk, `/echo/ws?room=origins&ticket=${ticket}`, { origin: 'http://localhost:5173' }));
  });

  it('answers a plain GET of a WebSocket route with 426 and Upgrade: websocket', async () => {
    const res = await tk.request('GET', '/echo/ws?room=lobby', { token: admin });
    expect(res.status).to.equal(426);
    expect(res.body.error.code).to.equal('upgrade_required');
    expect(res.headers.get('upgrade')).to.equal('websocket');
  });

  it("checks the route's permission as the principal holds it at upgrade time", async () => {
    const user = await createUser(tk, admin, {
      username: 'demoted',
      password: 'demoted-password-0000',
      roles: ['admin'],
    });
    const session = await login(tk, { tenant_id: 'default', username: 'demoted', password: 'demoted-password-0000' });
    const ticket = await mintTicket(tk, session.access_token, { room: 'rbac' });
    const demoted = await tk.request('PUT', `/users/${user.id}/roles`, { token: admin, body: { roles: ['viewer'] } });
    expect(demoted.status).to.equal(200);
    const refusal = await mustRefuse(tk, `/echo/ws?room=rbac&ticket=${ticket}`);
    expect(refusal.status).to.equal(403);
    expect(refusal.body.error.message).to.contain('echo:socket:open');
  });

  it('closes the socket (4401) within 2 s of a logout of the session that minted its ticket', async () => {
    const session = await login(tk, bootstrapCredentials());
    const socket = await mustOpen(
      tk,
      `/echo/ws?room=logout&ticket=${await mintTicket(tk, session.access_token, { room: 'logout' })}`,
    );
    const bystander = await mustOpen(
      tk,
      `/echo/ws?room=logout&ticket=${await mintTicket(tk, admin, { room: 'logout' })}`,
    );
    const started = Date.now();
    const closing = closed(socket);
    expect((await tk.request('POST', '/auth/logout', { token: session.access_token })).status).to.equal(204);
    const { code, reason } = await closing;
    expect(code).to.equal(4401);
    expect(reason).to.equal('credential revoked');
    expect(Date.now() - started).to.be.below(2000);
    expect(bystander.readyState, 'a socket of another session stays open').to.equal(bystander.OPEN);
    await shut(bystander);
  });

  it('closes the socket (4401) within 2 s of the revocation of the API token that minted its ticket', async () => {
    const minted = await tk.request('POST', '/api-tokens', {
      token: admin,
      body: { name: 'socket token', roles: ['admin'] },
    });
    expect(minted.status).to.equal(201);
    const socket = await mustOpen(
      tk,
      `/echo/ws?room=token&ticket=${await mintTicket(tk, minted.body.secret, { room: 'token' })}`,
    );
    const started = Date.now();
    const closing = closed(socket);
    expect((await tk.request('DELETE', `/api-tokens/${minted.body.token.id}`, { token: admin })).status).to.be.oneOf([
      200, 204,
    ]);
    expect((await closing).code).to.equal(4401);
    expect(Date.now() - started).to.be.below(2000);
  });

  it('closes the socket with 1009 when a message exceeds max_payload_bytes', async () => {
    const socket = await mustOpen(tk, `/echo/ws?room=big&ticket=${await mintTicket(tk, admin, { room: 'big' })}`);
    const closing = closed(socket);
    socket.send(Buffer.alloc(2048, 1));
    expect((await closing).code).to.equal(1009);
  });

  it("refuses a subject's socket beyond max_sockets_per_subject with 429 before the upgrade", async () => {
    await createUser(tk, admin, { username: 'capped', password: 'capped-password-0000', roles: ['admin'] });
    const { access_token: capped } = await login(tk, {
      tenant_id: 'default',
      username: 'capped',
      password: 'capped-password-0000',
    });
    const open = async () => `/echo/ws?room=cap&ticket=${await mintTicket(tk, capped, { room: 'cap' })}`;
    const first = await mustOpen(tk, await open());
    const second = await mustOpen(tk, await open());
    const third = await mustRefuse(tk, await open());
    expect(third.status).to.equal(429);
    expect(third.body.error.code).to.equal('too_many_requests');
    await shut(await mustOpen(tk, `/echo/ws?room=cap&ticket=${await mintTicket(tk, admin, { room: 'cap' })}`));
    await shut(first);
    // The slot is freed when the server side of the connection closes, a moment after the client's.
    let reopened;
    for (let attempt = 0; attempt < 50 && !reopened; attempt++) {
      reopened = await mustOpen(tk, await open()).catch(() => undefined);
      if (!reopened) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(reopened?.readyState).to.equal(1);
    await shut(second);
    if (reopened) await shut(reopened);
  });

  it('drops a peer that stops answering pings', async () => {
    const silent = await mustOpen(tk, `/echo/ws?room=ping&ticket=${await mintTicket(tk, admin, { room: 'ping' })}`, {
      autoPong: false,
    });
    const answering = await mustOpen(tk, `/echo/ws?room=ping&ticket=${await mintTicket(tk, admin, { room: 'ping' })}`);
    expect((await closed(silent)).code).to.equal(1006);
    expect(answering.readyState, 'a peer that answers stays').to.equal(answering.OPEN);
    await shut(answering);
  });

  it('keeps a peer that answers through a stall longer than the ping interval (a busy or starved process)', async () => {
    const socket = await mustOpen(tk, `/echo/ws?room=stall&ticket=${await mintTicket(tk, admin, { room: 'stall' })}`);
    const messages = inbox(socket);
    await messages.next(); // the welcome
    // Right after answering a ping, hold the event loop past the next beats: the pong is sent
    // but the server has not read it when its overdue beat runs.
    let stalls = 0;
    const stalled = new Promise<void>((resolve) => {
      socket.on('ping', () => {
        const until = Date.now() + 350;
        while (Date.now() < until) {
          // busy
        }
        if (++stalls === 3) resolve();
      });
    });
    await Promise.race([
      stalled,
      closed(socket).then(({ code }) => {
        throw new Error(`the server dropped a peer that answered every ping (close ${code})`);
      }),
    ]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(socket.readyState, 'still open').to.equal(socket.OPEN);
    socket.send('still here');
    expect((await messages.next()).data.toString()).to.equal('still here');
    await shut(socket);
  });

  it('serves other upgrade requests as plain HTTP (Upgrade: h2c, or a path that is no WebSocket route)', async () => {
    const plain = (path: string, headers: Record<string, string>) =>
      new Promise<{ status: number; body: any }>((resolve, reject) => {
        const req = httpRequest(`${tk.url}${path}`, { headers }, (res) => {
          let text = '';
          res.on('data', (chunk: Buffer) => (text += chunk.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
        });
        req.on('error', reject);
        req.end();
      });
    const h2c = await plain('/health', {
      connection: 'Upgrade, HTTP2-Settings',
      upgrade: 'h2c',
      'http2-settings': 'AAMAAABkAARAAAAAAAIAAAAA',
    });
    expect(h2c.status).to.equal(200);
    expect(h2c.body.status).to.be.a('string');
    const nowhere = await mustRefuse(tk, '/nowhere');
    expect(nowhere.status).to.equal(404);
    expect(nowhere.body.error.code).to.equal('not_found');
  });
});

describe('WebSocket routes in a local deployment without authenticator', function () {
  this.timeout(120_000);
  let tk: TestKernel;
  before(async () => {
    tk = await startKernel({ plugins: ['system', FIXTURE], auth: { mode: 'none' } });
  });
  after(() => tk.close());

  it('still open with a ticket, minted by the local admin', async () => {
    const minted = await tk.request('POST', '/echo/tickets', { body: { room: 'local' } });
    expect(minted.status).to.equal(201);
    expect((await mustRefuse(tk, '/echo/ws?room=local')).status).to.equal(401);
    const socket = await mustOpen(tk, `/echo/ws?room=local&ticket=${minted.body.ticket}`);
    expect(JSON.parse((await inbox(socket).next()).data.toString())).to.deep.equal({
      welcome: { subject: 'local-admin', tenant: 'default', room: 'local' },
    });
    await shut(socket);
  });

  it('closes open sockets with 1001 when the kernel closes', async () => {
    const minted = await tk.request('POST', '/echo/tickets', { body: { room: 'bye' } });
    const socket = await mustOpen(tk, `/echo/ws?room=bye&ticket=${minted.body.ticket}`);
    const closing = closed(socket);
    await tk.close();
    expect((await closing).code).to.equal(1001);
  });
});
