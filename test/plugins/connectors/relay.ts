import { createServer, connect as tcpConnect, type Server, type Socket } from 'node:net';

/** A TCP relay to a broker (Mosquitto unless told) that the test can cut and restore on the same port: a broker outage it controls. */
export class Relay {
  constructor(private readonly upstreamPort = 1883) {}

  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  port = 0;

  async open(): Promise<void> {
    const server = createServer((client) => {
      const upstream = tcpConnect(this.upstreamPort, '127.0.0.1');
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => s.destroy());
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as { port: number }).port;
    this.server = server;
  }

  async cut(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  }
}
