import net from 'node:net';

/** A TCP relay in front of PostgreSQL that the test can cut and restore, like a network outage. */
export class CuttableRelay {
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

/** Skips the suite on the embedded database: there is no server to cut off. */
export function skipWithoutServer(suite: Mocha.Context): void {
  console.log('      (skipped: needs a PostgreSQL server to cut off; runs when DATABASE_URL is set, as .ci/run does)');
  suite.skip();
}

/** Opens a relay in front of DATABASE_URL's server; returns it and the database URL that goes through it. */
export async function relayToDatabase(): Promise<{ relay: CuttableRelay; url: string }> {
  const url = new URL(process.env.DATABASE_URL as string);
  const relay = new CuttableRelay({ host: url.hostname, port: Number(url.port || 5432) });
  await relay.open();
  url.hostname = '127.0.0.1';
  url.port = String(relay.port);
  return { relay, url: url.toString() };
}
