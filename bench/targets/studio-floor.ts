import Koa from 'koa';
import { getQuickJS } from 'quickjs-emscripten';
import { announce } from './serve.js';

/**
 * The floor for `npm run bench studio`: a bare Koa handler that evaluates the posted script
 * directly with quickjs-emscripten in this process, in one context reused for every request
 * (no worker thread, no fresh context, no limits, no database, no audit) — the least a run can
 * cost: one HTTP round trip plus the interpreter's own work.
 */
const quickjs = await getQuickJS();
const context = quickjs.newContext();
const prepare = context.unwrapResult(context.evalCode(`(function (json) {
  const captured = { pushed: [], logs: [] };
  globalThis.input = JSON.parse(json);
  globalThis.result = undefined;
  globalThis.service = { json: { decode: (raw) => JSON.parse(raw) }, route: { push: (v) => { captured.pushed.push(v); } } };
  globalThis.console = { log: (...args) => { captured.logs.push(args.map((a) => typeof a === 'string' ? a : JSON.stringify(a)).join(' ')); } };
  globalThis.__captured = captured;
})`));
const collect = context.unwrapResult(context.evalCode('(function () { return JSON.stringify({ result: globalThis.result, pushed: __captured.pushed, logs: __captured.logs }); })'));

const app = new Koa();
app.use(async (ctx) => {
  if (ctx.method !== 'POST' || ctx.path !== '/run') {
    ctx.status = 404;
    return;
  }
  const chunks: Buffer[] = [];
  for await (const chunk of ctx.req) chunks.push(chunk as Buffer);
  const request = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { script: string; input: { value: unknown } };
  const started = performance.now();
  const json = context.newString(JSON.stringify({ body: JSON.stringify(request.input.value), headers: {}, key: null }));
  context.unwrapResult(context.callFunction(prepare, context.undefined, json)).dispose();
  json.dispose();
  // A block, so the script's const declarations do not collide with the previous request's in the reused context.
  const evaluated = context.evalCode(`{\n${request.script}\n}`, 'main.js');
  if (evaluated.error) {
    const error = context.dump(evaluated.error) as { message?: string };
    evaluated.error.dispose();
    ctx.body = { ok: false, error: { message: String(error?.message) } };
    return;
  }
  evaluated.value.dispose();
  const out = context.unwrapResult(context.callFunction(collect, context.undefined));
  const collected = JSON.parse(context.getString(out)) as Record<string, unknown>;
  out.dispose();
  ctx.body = { ok: true, ...collected, duration_ms: Math.round((performance.now() - started) * 100) / 100 };
});
announce(app.listen(0, '127.0.0.1'));
