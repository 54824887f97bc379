import { createHash } from 'node:crypto';
import Koa from 'koa';
import { connectDatabase } from '../../kernel/db/connect.js';
import { announce } from './serve.js';
import { VIEW_COLUMNS, toComponent, type ComponentView } from '../../plugins/components/store.js';

/**
 * Hand-written Koa + knex handlers doing only the essential work of a kernel route, with no
 * pipeline: the baselines the kernel is measured against.
 */
const database = JSON.parse(process.env.BENCH_DATABASE ?? '{}') as { url?: string; data_dir?: string; schema?: string };
const db = (await connectDatabase({ pool_max: 10, ready_timeout_ms: 1000, ...database })).knex;
const app = new Koa();
const checkToken = process.env.BENCH_AUTH === 'token';

/** The same token lookup the kernel does: hash the presented secret, find it, check it is live. */
async function tokenIsLive(header: string | undefined): Promise<boolean> {
  const secret = header?.startsWith('Bearer ') ? header.slice(7) : undefined;
  if (!secret?.startsWith('sk_')) return false;
  const hash = createHash('sha256').update(secret).digest('hex');
  const row = (await db('identity_api_tokens').where({ secret_hash: hash }).first()) as
    | { revoked_at: Date | null; expires_at: Date | null }
    | undefined;
  return !!row && row.revoked_at === null && (row.expires_at === null || new Date(row.expires_at) > new Date());
}

app.use(async (ctx) => {
  if (checkToken && !(await tokenIsLive(ctx.get('authorization')))) {
    ctx.status = 401;
    return;
  }
  if (ctx.method === 'GET' && ctx.path === '/components') {
    // The columns the API shows and the shape it shows them in (status, secrets_set), as any
    // handler answering this route must: the same work as the kernel's, minus the pipeline.
    const rows = (await db('components')
      .select(VIEW_COLUMNS)
      .where({ tenant_id: 'default' })
      .orderBy('id', 'asc')
      .limit(101)) as ComponentView[];
    ctx.body = { items: rows.slice(0, 100).map(toComponent) };
    return;
  }
  if (ctx.method === 'POST' && ctx.path === '/components') {
    const chunks: Buffer[] = [];
    for await (const chunk of ctx.req) chunks.push(chunk as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: string; name: string; type: string };
    const now = new Date();
    const [row] = await db('components')
      .insert({ tenant_id: 'default', id: body.id, name: body.name, type: body.type, created_at: now, updated_at: now })
      .returning('*');
    ctx.status = 201;
    ctx.body = row;
    return;
  }
  ctx.status = 404;
});
announce(app.listen(0, '127.0.0.1'));
