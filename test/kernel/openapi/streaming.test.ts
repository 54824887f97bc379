import { expect } from 'chai';
import { Validator } from '@seriousme/openapi-schema-validator';
import { startKernel, type TestKernel } from '../../support/kernel.js';

const FIXTURE = { module: 'test/fixtures/realtime-plugin' };

describe('GET /openapi.json for WebSocket and event-stream routes', function () {
  this.timeout(120_000);
  let tk: TestKernel;
  let doc: { paths: Record<string, Record<string, any>> };

  before(async () => {
    tk = await startKernel({ plugins: ['system', FIXTURE], auth: { mode: 'none' } });
    const res = await tk.request('GET', '/openapi.json');
    expect(res.status).to.equal(200);
    doc = res.body;
  });
  after(() => tk.close());

  it('still passes an independent OpenAPI 3.1 validator', async () => {
    const result = await new Validator().validate(doc as unknown as Record<string, unknown>);
    expect(result.errors, JSON.stringify(result.errors, null, 1)).to.equal(undefined);
  });

  it('describes a WebSocket route as a GET answering 101, with x-websocket saying how to open it', () => {
    const op = doc.paths['/echo/ws']?.get;
    expect(op.responses['101'].description).to.contain('WebSocket');
    expect(op.responses).to.include.keys('401', '403', '426', '429');
    expect(op['x-websocket'].ticket).to.deep.equal({
      in: 'query',
      name: 'ticket',
      channel: 'echo',
      resource_parameter: 'room',
      minted_by: 'mintEchoTicket',
      ttl_seconds: 30,
      single_use: true,
      bound_to: ['subject', 'tenant', 'resource', 'channel'],
    });
    expect(op['x-websocket'].close_codes).to.include.keys('1001', '1009', '4401');
    const ticket = (op.parameters as Array<{ name: string; in: string; required: boolean }>).find(
      (p) => p.name === 'ticket',
    );
    expect(ticket).to.include({ in: 'query', required: true });
  });

  it("describes an event-stream route as text/event-stream, with the schema of each event's data", () => {
    const ok = doc.paths['/echo/counter']?.get.responses['200'];
    expect(Object.keys(ok.content)).to.deep.equal(['text/event-stream']);
    expect(ok.content['text/event-stream']['x-event-data']).to.deep.equal({ $ref: '#/components/schemas/echo.Count' });
  });
});
