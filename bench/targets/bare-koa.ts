import Koa from 'koa';
import { announce } from './serve.js';

/**
 * A bare Koa app answering /health with the same body the kernel's handler builds: the bench
 * passes the kernel's own fields (BENCH_HEALTH_BODY), so both write the same bytes.
 */
const app = new Koa();
const fields = JSON.parse(process.env.BENCH_HEALTH_BODY ?? '{}') as Record<string, unknown>;
const version = String(fields.version ?? '0.1.0');
const commit = String(fields.commit ?? 'bench');
const profile = String(fields.profile ?? 'test');
const startedAt = new Date(String(fields.started_at ?? new Date().toISOString()));
app.use((ctx) => {
  if (ctx.path !== '/health') {
    ctx.status = 404;
    return;
  }
  ctx.body = { status: 'ok', version, commit, profile, started_at: startedAt.toISOString(), uptime_seconds: Math.round(process.uptime() * 1000) / 1000 };
});
announce(app.listen(0, '127.0.0.1'));
