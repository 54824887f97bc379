import { expect } from 'chai';
import { connect, type NatsConnection } from 'nats';
import { ApiError } from '../../../kernel/errors.js';
import type { NewMessage, StreamRef } from '../../../plugins/streams/backend.js';
import { jetStreamPublisher } from '../../../plugins/streams/jetstream-publisher.js';
import { jetStreamName, natsBackend } from '../../../plugins/streams/nats-backend.js';
import { startKernel } from '../../support/kernel.js';

const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';

describe('streams on nats: the publish path', function () {
  this.timeout(120_000);

  describe('JetStream batch publisher', () => {
    let nc: NatsConnection;
    const name = `RT_TEST_PUB_${process.pid}`;
    const subject = `rt.testpub.${process.pid}`;
    before(async () => {
      nc = await connect({ servers: NATS_URL });
      const jsm = await nc.jetstreamManager();
      await jsm.streams.add({ name, subjects: [subject] });
    });
    after(async () => {
      await (await nc.jetstreamManager()).streams.delete(name).catch(() => undefined);
      await nc.drain();
    });

    it('answers each message its JetStream sequence, in the order sent, and the messages are stored with their headers', async () => {
      const publisher = jetStreamPublisher(nc, 5_000);
      const before = (await (await nc.jetstreamManager()).streams.info(name)).state.last_seq;
      const { headers } = await import('nats');
      const h = headers();
      h.set('Rt-Meta', '{"id":"m1"}');
      const seqs = await publisher.publish([
        { subject, data: Buffer.from('a'), headers: h },
        { subject, data: Buffer.from('b') },
        { subject, data: Buffer.from('c') },
      ]);
      expect(seqs.map((s) => s.seq)).to.deep.equal([before + 1, before + 2, before + 3]);
      const jsm = await nc.jetstreamManager();
      const first = await jsm.streams.getMessage(name, { seq: before + 1 });
      expect(Buffer.from(first.data).toString()).to.equal('a');
      expect(first.header.get('Rt-Meta')).to.equal('{"id":"m1"}');
      expect(Buffer.from((await jsm.streams.getMessage(name, { seq: before + 3 })).data).toString()).to.equal('c');
    });

    it('refuses with 503 unavailable when no JetStream stream takes the subject', async () => {
      const publisher = jetStreamPublisher(nc, 5_000);
      const err = await publisher.publish([{ subject: `rt.nobody.${process.pid}`, data: Buffer.from('x') }]).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).to.be.instanceOf(ApiError);
      expect((err as ApiError).code).to.equal('unavailable');
    });

    it('reports JetStream refusing a message (here: a wrong expected stream) as 503 unavailable naming the refusal', async () => {
      const publisher = jetStreamPublisher(nc, 5_000);
      const { headers } = await import('nats');
      const h = headers();
      h.set('Nats-Expected-Stream', 'NOT_THIS_ONE');
      const err = await publisher.publish([{ subject, data: Buffer.from('x'), headers: h }]).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).to.be.instanceOf(ApiError);
      expect((err as ApiError).code).to.equal('unavailable');
      expect((err as ApiError).message).to.match(/refused the message: .*stream/i);
    });
  });

  it('indexes a message published ahead of its transaction only while its stream lives: 404 and no index row once it is deleted', async () => {
    const tk = await startKernel({
      plugins: ['system', 'audit', 'streams'],
      auth: { mode: 'none' },
      settings: { streams: { backend: 'nats', nats: { url: NATS_URL } } },
    });
    const backend = natsBackend(NATS_URL);
    const knex = tk.kernel.database.knex;
    let ref: StreamRef | undefined;
    try {
      expect((await tk.request('POST', '/streams', { body: { id: 'gone', name: 'gone' } })).status).to.equal(201);
      const row = (await knex('streams_streams').where({ tenant_id: 'default', id: 'gone' }).first()) as {
        uid: string;
      };
      ref = { tenantId: 'default', id: 'gone', uid: row.uid, partitions: 1, maxAgeHours: null, maxMessages: null };
      const messages: NewMessage[] = [
        {
          id: 'msg_ahead_1',
          partition: 0,
          key: null,
          headers: {},
          contentType: 'application/json',
          body: Buffer.from('1'),
          replayOf: null,
        },
      ];
      const now = new Date();
      const published = await (backend.publishAhead as NonNullable<typeof backend.publishAhead>)(ref, messages, now);
      expect(published[0]?.offset).to.be.greaterThan(0);
      expect((await tk.request('DELETE', '/streams/gone')).status).to.equal(204);
      const err = await knex
        .transaction((trx) => backend.append(trx, ref as StreamRef, messages, now, { dryRun: false, published }))
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      expect((err as ApiError).code).to.equal('not_found');
      const [count] = await knex('streams_message_runs')
        .where({ tenant_id: 'default', stream_uid: row.uid })
        .count({ n: '*' });
      expect(Number(count?.n)).to.equal(0);
    } finally {
      await backend.close?.();
      if (ref) {
        const nc = await connect({ servers: NATS_URL });
        await (await nc.jetstreamManager()).streams.delete(jetStreamName(ref)).catch(() => undefined);
        await nc.drain();
      }
      await tk.close();
    }
  });
});
