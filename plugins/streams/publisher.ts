import { ApiError } from '../../kernel/errors.js';
import type { Knex } from 'knex';
import type { SourceMessage, StreamPublisher } from '../components/contract.js';
import type { NewMessage, StreamRef } from './backend.js';
import { encodeRaw } from './encode.js';
import type { StreamsService } from './service.js';
import { StreamStore } from './store.js';

/**
 * What the streams plugin gives the components plugin (`components.publisher`): sources append
 * what they receive through the same publish path as `POST /streams/{id}/messages` (limits, codec
 * check, partitioning, the `streams.appended` wake-up), with the broker's message id as the
 * idempotency key so a redelivery appends nothing new. The stream row comes from the publish
 * cache where this process is the database's one user (the embedded database), as for the API's
 * publishes: a source's batch no longer reads it each time.
 */
export function streamPublisher(service: StreamsService): StreamPublisher {
  return {
    async exists(db, tenantId, streamId) {
      return (await new StreamStore(db).get(tenantId, streamId)) !== undefined;
    },

    async append(db, tenantId, streamId, message, options = {}) {
      const { stream, ref } = await service.streamToPublish(db, tenantId, streamId);
      const codec = await service.codecOf(db, stream);
      const [encoded] = encodeRaw(Buffer.from(message.body), message.key ?? null, stream, codec, service.limits);
      if (!encoded) throw new Error('encodeRaw returned no message');
      encoded.headers = { ...(message.headers ?? {}) };
      if (!codec && message.content_type) encoded.contentType = message.content_type;
      try {
        const { appended, replayed } = await service.publish(db, ref, [encoded], {
          dryRun: false,
          idempotencyKey: options.dedupKey,
        });
        const first = appended[0] as { id: string; partition: number; offset: number };
        return { ...first, duplicate: replayed };
      } catch (err) {
        // The same broker message id with other bytes (a timer's payload edited between two
        // instances' ticks, say): the id already names an appended message, so nothing is added.
        if (err instanceof ApiError && err.code === 'idempotency_key_reused')
          return { id: '', partition: 0, offset: -1, duplicate: true };
        throw err;
      }
    },

    async appendMany(db, tenantId, streamId, messages) {
      const { ref, encoded } = await encodeAll(db, tenantId, streamId, messages);
      await service.publish(db, ref, encoded, { dryRun: false });
    },

    async appendManyIn(write, db, tenantId, streamId, messages) {
      const { ref, encoded } = await encodeAll(db, tenantId, streamId, messages);
      return service.appendIn(write, ref, encoded);
    },
  };

  /** A source's messages encoded for the stream (its codec's check, the limits, partitions and ids). */
  async function encodeAll(
    db: Knex | Knex.Transaction,
    tenantId: string,
    streamId: string,
    messages: readonly SourceMessage[],
  ): Promise<{ ref: StreamRef; encoded: NewMessage[] }> {
    const { stream, ref } = await service.streamToPublish(db, tenantId, streamId);
    const codec = await service.codecOf(db, stream);
    const encoded = messages.map((message) => {
      const [one] = encodeRaw(Buffer.from(message.body), message.key ?? null, stream, codec, service.limits);
      if (!one) throw new Error('encodeRaw returned no message');
      one.headers = { ...(message.headers ?? {}) };
      if (!codec && message.content_type) one.contentType = message.content_type;
      return one;
    });
    return { ref, encoded };
  }
}
