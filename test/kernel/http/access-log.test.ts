import { Writable } from 'node:stream';
import { expect } from 'chai';
import pino from 'pino';
import { createKernel, type Kernel } from '../../../kernel/boot.js';
import { loadConfig } from '../../../kernel/config/load.js';
import { request, testDatabase, onPostgres } from '../../support/kernel.js';

interface Line {
  msg: string;
  requestId?: string;
  method?: string;
  route?: string;
  status?: number;
  ms?: number;
}

/**
 * The access log and the request frame around every route: one line per request once its
 * response is decided, for a route's reply, a 404 the router throws before any promise exists,
 * and a 404 a handler's promise rejects with.
 */
describe('access log', function () {
  this.timeout(120_000);
  const lines: Line[] = [];
  let kernel: Kernel;
  let url: string;
  let schema: string | undefined;
  before(async () => {
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const text of chunk.toString('utf8').split('\n')) if (text) lines.push(JSON.parse(text) as Line);
        done();
      },
    });
    const env = { ...process.env };
    delete env.DATABASE_URL;
    delete env.PORT;
    delete env.RUNTIME_PLUGINS;
    const database = testDatabase();
    schema = typeof database.schema === 'string' ? database.schema : undefined;
    const config = loadConfig({
      profile: 'test',
      env,
      overrides: { database, plugins: ['system', 'components'], auth: { mode: 'none' }, log: { level: 'info' } },
    });
    kernel = await createKernel({ config, logger: pino({ level: 'info' }, sink) });
    ({ url } = await kernel.listen());
  });
  after(async () => {
    if (onPostgres && schema)
      await kernel.database.knex.raw('DROP SCHEMA IF EXISTS ?? CASCADE', [schema]).catch(() => undefined);
    await kernel.close();
  });

  const accessLines = (requestId: string | null): Line[] =>
    lines.filter((l) => l.msg === 'request' && l.requestId === requestId);

  it('writes one line per request with its id, method, route template, status and duration', async () => {
    const res = await request(url, 'GET', '/live');
    expect(res.status).to.equal(200);
    const [line, ...more] = accessLines(res.headers.get('x-request-id'));
    expect(more).to.deep.equal([]);
    expect(line).to.include({ method: 'GET', route: '/live', status: 200 });
    expect(line?.ms).to.be.a('number').and.at.least(0);
  });

  it('logs the status the error boundary answered, for an unknown path and for a handler that refuses', async () => {
    const unknown = await request(url, 'GET', '/no-such-route', { headers: { 'x-request-id': 'trace-unknown' } });
    expect(unknown.status).to.equal(404);
    expect((unknown.body as { error: { code: string } }).error.code).to.equal('not_found');
    const [refused, ...again] = accessLines('trace-unknown');
    expect(again).to.deep.equal([]);
    expect(refused).to.include({ method: 'GET', route: 'unmatched', status: 404 });

    const missing = await request(url, 'GET', '/components/absent', { headers: { 'x-request-id': 'trace-missing' } });
    expect(missing.status).to.equal(404);
    const [line, ...more] = accessLines('trace-missing');
    expect(more).to.deep.equal([]);
    expect(line).to.include({ method: 'GET', route: '/components/{id}', status: 404 });
  });

  it('counts a request the router refused in the metrics too', async () => {
    await request(url, 'DELETE', '/live');
    const text = (await request(url, 'GET', '/metrics')).text;
    expect(text).to.match(/^http_requests_total\{method="GET",route="unmatched",status="404"\} 1$/m);
    expect(text).to.match(/^http_requests_total\{method="DELETE",route="unmatched",status="405"\} 1$/m);
  });
});
