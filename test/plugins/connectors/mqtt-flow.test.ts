import { expect } from 'chai';
import type { MqttClient } from 'mqtt';
import { MqttPublishFlow } from '../../../plugins/connectors/sinks/mqtt-flow.js';

/** A client that counts what the flow does to it: corks, uncorks and pings. */
function countingClient() {
  const counts = { cork: 0, uncork: 0, ping: 0 };
  const client = {
    connected: true,
    stream: { cork: () => void counts.cork++, uncork: () => void counts.uncork++ },
    sendPing: () => void counts.ping++,
  };
  return { counts, client: client as unknown as MqttClient };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('connectors: how mqtt.publish writes a burst and hears its PUBACKs (mqtt-flow.ts)', () => {
  it('writes the publishes of one turn of the event loop together: corked once, uncorked when the turn ends', async () => {
    const { counts, client } = countingClient();
    const flow = new MqttPublishFlow(client);
    for (let i = 0; i < 5; i++) flow.sent();
    expect(counts).to.deep.include({ cork: 1, uncork: 0 });
    await turn();
    expect(counts).to.deep.include({ cork: 1, uncork: 1 });
    flow.sent();
    expect(counts.cork).to.equal(2);
  });

  it('answers PUBACKs that leave others outstanding with one PINGREQ per turn, and none once all are in', async () => {
    const { counts, client } = countingClient();
    const flow = new MqttPublishFlow(client);
    for (let i = 0; i < 4; i++) flow.sent();
    flow.settled();
    flow.settled();
    await turn();
    expect(counts.ping, 'two still outstanding: one ping for the turn').to.equal(1);
    flow.settled();
    flow.settled();
    await turn();
    expect(counts.ping, 'all acknowledged: nothing to hurry').to.equal(1);
  });
});
