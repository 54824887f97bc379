import { expect } from 'chai';
import { startKernel, type TestKernel } from '../../support/kernel.js';

/** The value of the one sample line that starts with `prefix`. */
function sample(text: string, prefix: string): number {
  const line = text.split('\n').find((l) => l.startsWith(prefix));
  if (!line) throw new Error(`no sample ${prefix} in:\n${text}`);
  return Number(line.slice(line.lastIndexOf(' ') + 1));
}

describe('HTTP metrics', () => {
  let tk: TestKernel;
  before(async () => {
    tk = await startKernel({ plugins: ['system', 'components'], auth: { mode: 'none' } });
  });
  after(() => tk.close());

  it('counts each request once, by method, route template and status, in the counter and the histogram alike', async () => {
    for (let i = 0; i < 3; i++) expect((await tk.request('GET', '/live')).status).to.equal(200);
    for (const id of ['a', 'b']) expect((await tk.request('GET', `/components/${id}`)).status).to.equal(404);
    const text = (await tk.request('GET', '/metrics')).text;

    expect(sample(text, 'http_requests_total{method="GET",route="/live",status="200"}')).to.equal(3);
    expect(sample(text, 'http_requests_total{method="GET",route="/components/{id}",status="404"}')).to.equal(2);
    const live = 'method="GET",route="/live",status="200"';
    expect(sample(text, `http_request_duration_seconds_count{${live}}`)).to.equal(3);
    expect(sample(text, `http_request_duration_seconds_bucket{le="+Inf",${live}}`)).to.equal(3);
    expect(sample(text, `http_request_duration_seconds_sum{${live}}`))
      .to.be.greaterThan(0)
      .and.lessThan(30);
  });

  it('keeps the buckets cumulative: each bound counts the requests at or under it', async () => {
    const text = (await tk.request('GET', '/metrics')).text;
    const counts = text
      .split('\n')
      .filter((l) => l.startsWith('http_request_duration_seconds_bucket{') && l.includes('route="/live"'))
      .map((l) => Number(l.slice(l.lastIndexOf(' ') + 1)));
    expect(counts).to.have.length(14);
    for (let i = 1; i < counts.length; i++) expect(counts[i]).to.be.at.least(counts[i - 1] as number);
    expect(counts[counts.length - 1]).to.equal(3);
  });

  it('gives every response a request id, and keeps a sane one the client sent', async () => {
    const made = await tk.request('GET', '/live');
    expect(made.headers.get('x-request-id')).to.match(/^[0-9a-f-]{36}$/);
    const kept = await tk.request('GET', '/no-such-route', { headers: { 'x-request-id': 'trace-1.2:3' } });
    expect(kept.status).to.equal(404);
    expect(kept.headers.get('x-request-id')).to.equal('trace-1.2:3');
    const replaced = await tk.request('GET', '/live', { headers: { 'x-request-id': 'not sane!' } });
    expect(replaced.headers.get('x-request-id')).to.match(/^[0-9a-f-]{36}$/);
  });
});
