import { expect } from 'chai';
import net from 'node:net';
import { startKernel, onPostgres, type TestKernel } from '../../support/kernel.js';

/** A TCP relay in front of PostgreSQL that the test can cut and restore, like a network outage. */
class CuttableRelay {
  private server: net.Server | undefined;
  private readonly sockets = new Set<net.Socket>();
  port = 0;

  constructor(private readonly target: { host: string; port: number }) {}

  async open(): Promise<void> {
    this.server = net.createServer((client) => {
      const upstream = net.connect(this.target);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => s.destroy());
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => this.server?.listen(this.port, '127.0.0.1', resolve));
    this.port = (this.server.address() as net.AddressInfo).port;
  }

  async cut(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server?.close(() => resolve()));
    for (const s of this.sockets) s.destroy();
    await closed;
  }
}

async function readyStatus(tk: TestKernel): Promise<number> {
  return (await tk.request('GET', '/ready')).status;
}

async function waitFor(check: () => Promise<boolean>, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

describe('GET /ready when the database goes away', function () {
  this.timeout(60000);
  let relay: CuttableRelay;
  let tk: TestKernel;

  before(async function () {
    if (!onPostgres) {
      console.log('      (skipped: needs a PostgreSQL server to cut off; runs when DATABASE_URL is set, as .ci/run does)');
      this.skip();
    }
    const url = new URL(process.env.DATABASE_URL as string);
    relay = new CuttableRelay({ host: url.hostname, port: Number(url.port || 5432) });
    await relay.open();
    url.hostname = '127.0.0.1';
    url.port = String(relay.port);
    tk = await startKernel({ plugins: ['system'], auth: { mode: 'none' }, database: { url: url.toString(), ready_timeout_ms: 500 } });
  });
  after(async () => {
    await tk?.close();
    await relay?.cut().catch(() => undefined);
  });

  it('flips to 503 when the database is unreachable and back to 200 when it returns', async () => {
    expect(await readyStatus(tk)).to.equal(200);
    await relay.cut();
    expect(await waitFor(async () => (await readyStatus(tk)) === 503, 10000)).to.equal(true);
    const down = await tk.request('GET', '/ready');
    expect(down.body).to.deep.include({ status: 'not_ready' });
    expect(down.body.checks.database).to.equal(false);
    expect((await tk.request('GET', '/live')).status).to.equal(200);
    await relay.open();
    expect(await waitFor(async () => (await readyStatus(tk)) === 200, 15000)).to.equal(true);
  });
});
