import Koa from 'koa';
import { announce } from './serve.js';

/** A bare Koa app answering /health with the same body the kernel's handler builds. */
const app = new Koa();
const startedAt = new Date();
app.use((ctx) => {
  if (ctx.path !== '/health') {
    ctx.status = 404;
    return;
  }
  ctx.body = { status: 'ok', version: '0.1.0', commit: 'bench', profile: 'test', started_at: startedAt.toISOString(), uptime_seconds: process.uptime() };
});
announce(app.listen(0, '127.0.0.1'));
