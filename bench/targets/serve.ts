import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Every benchmark target prints one JSON line with its URL on stdout, then serves until killed. */
export function announce(server: Server): void {
  server.once('listening', () => {
    const { port } = server.address() as AddressInfo;
    process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}` })}\n`);
  });
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
}
