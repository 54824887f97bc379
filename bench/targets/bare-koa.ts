import { randomUUID } from 'node:crypto';
import Koa from 'koa';
import { announce } from './serve.js';

/**
 * A bare Koa app answering /health with the same body the kernel's handler builds: the bench
 * passes the kernel's own fields (BENCH_HEALTH_BODY), so both write the same bytes. With
 * BENCH_HEALTH_HEADERS=spec it also sets what the spec asks of every response (a request id,
 * nosniff, no-store), the floor any kernel meeting the spec can reach.
 */
const app = new Koa();
const fields = JSON.parse(process.env.BENCH_HEALTH_BODY ?? '{}') as Record<string, unknown>;
const version = String(fields.version ?? '0.1.0');
const commit = String(fields.commit ?? 'bench');
const profile = String(fields.profile ?? 'test');
// Written once, as the kernel's handler does.
const startedAt = new Date(String(fields.started_at ?? new Date().toISOString())).toISOString();
if (process.env.BENCH_HEALTH_HEADERS === 'spec') {
  app.use((ctx, next) => {
    ctx.res.setHeader('X-Request-Id', randomUUID());
    ctx.res.setHeader('X-Content-Type-Options', 'nosniff');
    ctx.res.setHeader('Cache-Control', 'no-store');
    return next();
  });
}
app.use((ctx) => {
  if (ctx.path !== '/health') {
    ctx.status = 404;
    return;
  }
  ctx.body = {
    status: 'ok',
    version,
    commit,
    profile,
    started_at: startedAt,
    uptime_seconds: Math.round(process.uptime() * 1000) / 1000,
  };
});
announce(app.listen(0, '127.0.0.1'));
