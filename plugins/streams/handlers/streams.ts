import type { Knex } from 'knex';
import { ApiError } from '../../../kernel/errors.js';
import {
  afterKey,
  operationHandlers,
  pageOf,
  slugify,
  type CallOf,
  type InUse,
  type OperationHandler,
} from '../../../kernel/plugin/api.js';
import type { Call, Handler } from '../../../kernel/types.js';
import type { Appended, NewMessage } from '../backend.js';
import { encodeBatch, encodeRaw } from '../encode.js';
import type { Operations } from '../generated/manifest-types.js';
import { messageView } from '../render.js';
import type { StreamsService } from '../service.js';
import { ConsumerStore, StreamStore, type StreamFields, type StreamRecord } from '../store.js';

type PublishCall = CallOf<Operations['publishMessages']>;

function headerText(call: Call, name: string): string | undefined {
  const value = call.headers[name];
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

/** A publish's messages, encoded for its stream, and (nats, no idempotency key) their JetStream acks. */
interface Prepared {
  record: StreamRecord;
  messages: NewMessage[];
  key: string | undefined;
  ahead?: { at: Date; published: Appended[] };
}

/** GET/POST /streams, GET/PATCH/DELETE /streams/{id}, publish, read, consumers. */
export function streamHandlers(service: StreamsService, inUse?: InUse): Record<string, Handler> {
  const prepared = new WeakMap<Call, Prepared>();

  async function encode(call: PublishCall): Promise<Prepared> {
    const record = await service.streamToPublish(call.db, call.tenantId, call.params.id);
    const codec = await service.codecOf(call.db, record.stream);
    if (Buffer.isBuffer(call.body)) {
      return {
        record,
        messages: encodeRaw(call.body, headerText(call, 'x-message-key') ?? null, record.stream, codec, service.limits),
        key: headerText(call, 'idempotency-key'),
      };
    }
    const body = call.body;
    return {
      record,
      messages: encodeBatch(body.messages, record.stream, codec, service.limits),
      key: body.idempotency_key ?? headerText(call, 'idempotency-key'),
    };
  }

  const publishMessages: OperationHandler<Operations['publishMessages']> = Object.assign(
    async (call: PublishCall) => {
      let publish = prepared.get(call);
      // Published before the transaction (publish.ahead): the backend indexes the messages only
      // while that stream still lives and answers 404 otherwise, so it is not looked up again.
      if (publish && !publish.ahead) {
        // Encoded before the transaction: the stream must still be that one.
        const current = await service.stream(call.db, call.tenantId, call.params.id);
        if (current.ref.uid !== publish.record.ref.uid)
          throw new ApiError('not_found', `No stream "${call.params.id}".`);
        publish = { ...publish, record: current };
      } else publish ??= await encode(call);
      const { record, messages, key, ahead } = publish;
      if (key !== undefined) call.idempotencyKey = key;
      const { appended, replayed } = await service.publish(call.db as Knex.Transaction, record.ref, messages, {
        dryRun: call.dryRun,
        idempotencyKey: key,
        ...(ahead ? { ahead } : {}),
        ...(call.write ? { write: call.write } : {}),
      });
      call.notes.auditDetail = { ...(call.notes.auditDetail ?? {}), messages: appended.length, replayed };
      return {
        status: 201,
        body: { messages: appended },
        ...(replayed ? { headers: { 'Idempotent-Replayed': 'true' } } : {}),
      };
    },
    {
      /**
       * On nats, publishing waits for JetStream's acks: done here, before the transaction, so the
       * database connection (the only one on the embedded database) is not held meanwhile; the
       * transaction then indexes the messages and writes the audit record. A publish with an
       * idempotency key still publishes in the transaction, after its key is claimed. Messages
       * whose transaction then fails stay in JetStream unindexed, as when a commit fails.
       */
      async beforeTransaction(call: PublishCall) {
        const backend = service.backend;
        if (!backend.publishAhead) return;
        const publish = await encode(call);
        if (publish.key === undefined) {
          const at = service.clock.now();
          publish.ahead = { at, published: await backend.publishAhead(publish.record.ref, publish.messages, at) };
        }
        prepared.set(call, publish);
      },
      /**
       * Published ahead, a publish only indexes its messages and announces them: appends the
       * kernel sends with the audit record as one statement (no transaction held across awaits).
       */
      combinedWrite: (call: PublishCall) => prepared.get(call)?.ahead !== undefined,
    },
  );

  return operationHandlers<Operations>({
    async listStreams(call) {
      const page = pageOf(call);
      return {
        status: 200,
        body: { items: await new StreamStore(call.db).list(call.tenantId, afterKey(page), page.fetch) },
      };
    },

    async createStream(call) {
      const body = call.body;
      const id = body.id ?? slugify(body.name);
      if (!id)
        throw new ApiError('validation_error', 'The name yields an empty id; send an id.', {
          details: [{ in: 'body', pointer: '/name', message: 'has no letters or digits to derive an id from' }],
        });
      call.resourceId = id;
      const fields: StreamFields = {
        name: body.name,
        partitions: body.partitions ?? 1,
        retention: body.retention ?? {},
        codec: body.codec ?? null,
      };
      if (fields.codec !== null) await service.checkCodec(call.db, call.tenantId, fields.codec);
      service.streamsChanged();
      const created = await new StreamStore(call.db).insert(call.tenantId, id, fields, service.clock.now());
      await service.backend.provision(call.db, created.ref);
      return { status: 201, body: created.stream, headers: { Location: `/streams/${id}` } };
    },

    async getStream(call) {
      return { status: 200, body: (await service.stream(call.db, call.tenantId, call.params.id)).stream };
    },

    async patchStream(call) {
      const body = call.body;
      const current = await service.stream(call.db, call.tenantId, call.params.id, { forUpdate: true });
      const fields: StreamFields = {
        name: body.name ?? current.stream.name,
        partitions: body.partitions ?? current.stream.partitions,
        retention: body.retention ?? current.stream.retention,
        codec: body.codec === undefined ? current.stream.codec : body.codec,
      };
      // Fewer partitions would move keys and strand the messages of the ones removed.
      if (fields.partitions < current.stream.partitions) {
        throw new ApiError(
          'validation_error',
          `A stream's partitions can only grow (it has ${current.stream.partitions}).`,
          { details: [{ in: 'body', pointer: '/partitions', message: 'must not be less than the current count' }] },
        );
      }
      if (fields.codec !== null && fields.codec !== current.stream.codec)
        await service.checkCodec(call.db, call.tenantId, fields.codec);
      service.streamsChanged();
      const updated = await new StreamStore(call.db).update(call.tenantId, call.params.id, fields, service.clock.now());
      await service.backend.provision(call.db, updated.ref);
      return { status: 200, body: updated.stream };
    },

    async deleteStream(call) {
      const current = await service.stream(call.db, call.tenantId, call.params.id, { forUpdate: true });
      await inUse?.(call.db, call.tenantId, 'stream', call.params.id);
      service.streamsChanged();
      await new StreamStore(call.db).remove(call.tenantId, call.params.id);
      await service.backend.discard(call.db, current.ref);
      return { status: 204 };
    },

    publishMessages,

    async readStreamMessages(call) {
      const { stream, ref } = await service.stream(call.db, call.tenantId, call.params.id);
      const page = pageOf(call);
      const partition = typeof call.query.partition === 'number' ? call.query.partition : undefined;
      const fromOffset = typeof call.query.from_offset === 'number' ? call.query.from_offset : undefined;
      const after = page.after ? { partition: Number(page.after[0]), offset: Number(page.after[1]) } : undefined;
      const found = await service.backend.read(call.db, ref, {
        ...(partition !== undefined ? { partition } : {}),
        ...(fromOffset !== undefined ? { fromOffset } : {}),
        ...(after ? { after } : {}),
        limit: page.fetch,
      });
      const decoders = service.decoders(call.db, stream.tenant_id);
      const items = [];
      for (const m of found) items.push(messageView(m, await decoders.of(stream.codec, m)));
      return { status: 200, body: { items } };
    },

    async listConsumers(call) {
      const { ref } = await service.stream(call.db, call.tenantId, call.params.id);
      const page = pageOf(call);
      const after = page.after ? { consumer: String(page.after[0]), partition: Number(page.after[1]) } : undefined;
      const offsets = (await new ConsumerStore(call.db).list(ref))
        .filter(
          (o) =>
            !after || o.consumer > after.consumer || (o.consumer === after.consumer && o.partition > after.partition),
        )
        .slice(0, page.fetch);
      const items = [];
      for (const o of offsets)
        items.push({ ...o, lag: await service.backend.pending(call.db, ref, o.partition, o.committed_offset) });
      return { status: 200, body: { items } };
    },

    async commitConsumerOffsets(call) {
      const { stream, ref } = await service.stream(call.db, call.tenantId, call.params.id);
      const consumer = call.params.consumer;
      const offsets = call.body.offsets;
      const store = new ConsumerStore(call.db);
      for (const [index, { partition, offset }] of offsets.entries()) {
        if (partition >= stream.partitions)
          throw new ApiError('validation_error', `The stream has no partition ${partition}.`, {
            details: [
              { in: 'body', pointer: `/offsets/${index}/partition`, message: `must be below ${stream.partitions}` },
            ],
          });
        await store.commit(ref, consumer, partition, offset, service.clock.now());
      }
      call.resourceId = `${stream.id}/${consumer}`;
      return {
        status: 200,
        body: { consumer, offsets: (await store.list(ref)).filter((o) => o.consumer === consumer) },
      };
    },
  });
}
