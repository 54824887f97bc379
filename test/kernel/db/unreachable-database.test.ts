import { expect } from 'chai';
import { onPostgres, startKernel, type HttpResult, type TestKernel } from '../../support/kernel.js';
import { relayToDatabase, skipWithoutServer, type CuttableRelay } from '../../support/relay.js';
import { bootstrapCredentials, loginAdmin, mintToken } from '../../support/identity.js';
import { until } from '../../support/poll.js';

function expectUnavailable(res: HttpResult, what: string): void {
  expect(res.status, `${what}: ${res.text}`).to.equal(503);
  expect(res.body.error, what).to.include({ code: 'unavailable', status: 503 });
  expect(Number(res.headers.get('retry-after')), what).to.be.above(0);
}

describe('calls while the database is unreachable', function () {
  this.timeout(60000);
  let relay: CuttableRelay;
  let tk: TestKernel;
  let session: string;
  let apiToken: string;

  before(async function () {
    if (!onPostgres) return skipWithoutServer(this);
    let url: string;
    ({ relay, url } = await relayToDatabase());
    tk = await startKernel({ database: { url, ready_timeout_ms: 2000 } });
    session = await loginAdmin(tk);
    apiToken = await mintToken(tk, session, ['admin']);
  });
  after(async () => {
    await tk?.close();
    await relay?.cut().catch(() => undefined);
  });

  it('answers 503 unavailable with Retry-After on reads, writes, sign-in and every credential, then recovers', async () => {
    expect(
      (
        await tk.request('POST', '/components', {
          token: session,
          body: { type: 'passthrough', id: 'before', name: 'Before' },
        })
      ).status,
    ).to.equal(201);

    await relay.cut();
    expectUnavailable(await tk.request('GET', '/components', { token: session }), 'a read with a session');
    expectUnavailable(await tk.request('GET', '/components', { token: apiToken }), 'a read with an API token');
    expectUnavailable(
      await tk.request('GET', '/components', { headers: { 'x-api-key': apiToken } }),
      'a read with X-API-Key',
    );
    expectUnavailable(
      await tk.request('POST', '/components', {
        token: session,
        body: { type: 'passthrough', id: 'during', name: 'During' },
      }),
      'a write',
    );
    expectUnavailable(await tk.request('POST', '/auth/login', { body: bootstrapCredentials() }), 'a sign-in');
    // The kernel itself stays up: liveness does not need the database.
    expect((await tk.request('GET', '/live')).status).to.equal(200);

    await relay.open();
    await until(async () => (await tk.request('GET', '/components', { token: session })).status === 200, 15000);
    const list = await tk.request('GET', '/components', { token: apiToken });
    expect(list.status).to.equal(200);
    // The write refused during the outage left nothing behind.
    expect(list.body.items.map((c: { id: string }) => c.id)).to.deep.equal(['before']);
    expect(
      (
        await tk.request('POST', '/components', {
          token: apiToken,
          body: { type: 'passthrough', id: 'after', name: 'After' },
        })
      ).status,
    ).to.equal(201);
    expect((await tk.request('POST', '/auth/login', { body: bootstrapCredentials() })).status).to.equal(200);
  });
});
