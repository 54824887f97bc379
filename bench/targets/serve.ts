import Koa from 'koa';
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

/**
 * The hand-written floors' one route: a Koa app answering POST `path` with whatever `handle` makes
 * of the parsed JSON body (404 for anything else), read the plain way any handler would.
 */
export function serveJsonPost(
  path: string,
  handle: (body: unknown, ctx: Koa.Context) => Promise<{ status: number; body: unknown }>,
): void {
  const app = new Koa();
  app.use(async (ctx) => {
    if (ctx.method !== 'POST' || ctx.path !== path) {
      ctx.status = 404;
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of ctx.req) chunks.push(chunk as Buffer);
    const answer = await handle(JSON.parse(Buffer.concat(chunks).toString('utf8')), ctx);
    ctx.status = answer.status;
    ctx.body = answer.body;
  });
  announce(app.listen(0, '127.0.0.1'));
}
