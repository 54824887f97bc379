import { expect } from 'chai';
import { startKernel, onPostgres, type TestKernel } from '../../support/kernel.js';
import { relayToDatabase, skipWithoutServer, type CuttableRelay } from '../../support/relay.js';
import { until } from '../../support/poll.js';

async function readyStatus(tk: TestKernel): Promise<number> {
  return (await tk.request('GET', '/ready')).status;
}

describe('GET /ready when the database goes away', function () {
  this.timeout(60000);
  let relay: CuttableRelay;
  let tk: TestKernel;

  before(async function () {
    if (!onPostgres) return skipWithoutServer(this);
    let url: string;
    ({ relay, url } = await relayToDatabase());
    tk = await startKernel({ plugins: ['system'], auth: { mode: 'none' }, database: { url, ready_timeout_ms: 500 } });
  });
  after(async () => {
    await tk?.close();
    await relay?.cut().catch(() => undefined);
  });

  it('flips to 503 when the database is unreachable and back to 200 when it returns', async () => {
    expect(await readyStatus(tk)).to.equal(200);
    await relay.cut();
    await until(async () => (await readyStatus(tk)) === 503, 10000);
    const down = await tk.request('GET', '/ready');
    expect(down.body).to.deep.include({ status: 'not_ready' });
    expect(down.body.checks.database).to.equal(false);
    expect((await tk.request('GET', '/live')).status).to.equal(200);
    await relay.open();
    await until(async () => (await readyStatus(tk)) === 200, 15000);
  });
});
