import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A real HTTP receiver on loopback that keeps every body posted to it. */
export interface Receiver {
  url: string;
  bodies: any[];
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const bodies: any[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      bodies.push({
        method: req.method,
        contentType: req.headers['content-type'],
        body: JSON.parse(Buffer.concat(chunks).toString('utf8')),
      });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    bodies,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
