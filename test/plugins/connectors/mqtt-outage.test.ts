import { expect } from 'chai';
import mqtt from 'mqtt';
import type { TestKernel } from '../../support/kernel.js';
import { Relay } from './relay.js';
import {
  makeComponent,
  makeStream,
  messagesOf,
  runtimeKernel,
  start,
  textOf,
  unique,
  waitForState,
} from './helpers.js';
import { until } from '../../support/poll.js';

describe('connectors: an MQTT broker outage', function () {
  this.timeout(120_000);
  let tk: TestKernel;
  const relay = new Relay();
  before(async () => {
    tk = await runtimeKernel();
    await relay.open();
  });
  after(async () => {
    await relay.cut();
    await tk?.close();
  });

  it('turns the source failed with last_error, then running again by itself, and loses no message the broker acknowledged', async () => {
    const stream = unique('outage');
    const topic = `rt-test/${unique('outage')}`;
    await makeStream(tk, stream);
    const c = await makeComponent(tk, {
      name: unique('outage-src'),
      type: 'mqtt.subscribe',
      stream,
      config: { url: `mqtt://127.0.0.1:${relay.port}`, topic, qos: 1, client_id: unique('rt-outage') },
    });
    await start(tk, c.id);
    await waitForState(tk, c.id, 'running');

    const publisher = await mqtt.connectAsync('mqtt://127.0.0.1:1883');
    const publish = async (texts: string[]) => {
      for (const text of texts) await publisher.publishAsync(topic, text, { qos: 1 }); // resolved = acknowledged by the broker
    };
    await publish(['before-1', 'before-2']);
    await until(async () => (await messagesOf(tk, stream)).length >= 2, 30_000, {
      what: 'the messages before the outage',
    });

    await relay.cut();
    const failed = await waitForState(tk, c.id, 'failed');
    expect(failed.last_error).to.match(/MQTT broker|ECONNREFUSED/); // the cut, or a restart that found nobody
    await publish(['during-1', 'during-2', 'during-3']); // the broker keeps them in the source's session

    await new Promise((r) => setTimeout(r, 1500)); // restarts keep failing while the broker is away
    expect((await tk.request('GET', `/components/${c.id}`)).body.status.state).to.equal('failed');

    await relay.open();
    const back = await waitForState(tk, c.id, 'running', 60_000);
    expect(back.last_error).to.equal(null);
    await publish(['after-1']);
    // QoS 1 is at-least-once: a message whose PUBACK the cut swallowed comes again, so the wait is
    // for every distinct text (counting rows could stop at a duplicate before the last one came).
    const texts = await until(
      async () => {
        const found = new Set((await messagesOf(tk, stream)).map(textOf));
        return found.size >= 6 ? found : undefined;
      },
      60_000,
      { what: 'every acknowledged message' },
    );
    await publisher.endAsync();
    expect(texts).to.deep.equal(new Set(['before-1', 'before-2', 'during-1', 'during-2', 'during-3', 'after-1']));
    // What failed and recovered is in the runtime log (GET /logs).
    const logged = await until(
      async () => {
        const rows = await tk.kernel.database
          .knex('runtime_logs')
          .where({ tenant_id: 'default', source: 'components' })
          .whereRaw("fields->>'component' = ?", [c.id])
          .select('message');
        const messages = rows.map((r: { message: string }) => r.message);
        return messages.some((m: string) => m.startsWith('source failed')) &&
          messages.filter((m: string) => m === 'source started').length >= 2
          ? messages
          : undefined;
      },
      30_000,
      { what: 'the failure in the runtime log' },
    );
    expect(logged).to.include('source started');
  });
});
