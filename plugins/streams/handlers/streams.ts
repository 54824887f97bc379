import type { Knex } from 'knex';
import { ApiError } from '../../../kernel/errors.js';
import { afterKey, pageOf, slugify } from '../../../kernel/plugin/api.js';
import type { Call, Handler } from '../../../kernel/types.js';
import { encodeBatch, encodeRaw, type PublishedMessage } from '../encode.js';
import { messageView } from '../render.js';
import type { StreamsService } from '../service.js';
import { ConsumerStore, StreamStore, type Retention, type StreamFields } from '../store.js';

interface CreateBody {
  id?: string;
  name: string;
  partitions?: number;
  retention?: Retention;
  codec?: string | null;
}

interface PublishBody {
  messages: PublishedMessage[];
  idempotency_key?: string;
}

const tenant = (call: Call): string => call.tenantId as string;
const idParam = (call: Call): string => String(call.params.id);

function headerText(call: Call, name: string): string | undefined {
  const value = call.headers[name];
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

/** GET/POST /streams, GET/PATCH/DELETE /streams/{id}, publish, read, consumers. */
export function streamHandlers(service: StreamsService): Record<string, Handler> {
  return {
    async listStreams(call) {
      const page = pageOf(call);
      return { status: 200, body: { items: await new StreamStore(call.db).list(tenant(call), afterKey(page), page.fetch) } };
    },

    async createStream(call) {
      const body = call.body as CreateBody;
      const id = body.id ?? slugify(body.name);
      if (!id) throw new ApiError('validation_error', 'The name yields an empty id; send an id.', { details: [{ in: 'body', pointer: '/name', message: 'has no letters or digits to derive an id from' }] });
      call.resourceId = id;
      const fields: StreamFields = { name: body.name, partitions: body.partitions ?? 1, retention: body.retention ?? {}, codec: body.codec ?? null };
      if (fields.codec !== null) await service.checkCodec(call.db, tenant(call), fields.codec);
      const created = await new StreamStore(call.db).insert(tenant(call), id, fields, service.clock.now());
      await service.backend.provision(call.db, created.ref);
      return { status: 201, body: created.stream, headers: { Location: `/streams/${id}` } };
    },

    async getStream(call) {
      return { status: 200, body: (await service.stream(call.db, tenant(call), idParam(call))).stream };
    },

    async patchStream(call) {
      const body = call.body as Partial<CreateBody>;
      const current = await service.stream(call.db, tenant(call), idParam(call), { forUpdate: true });
      const fields: StreamFields = {
        name: body.name ?? current.stream.name,
        partitions: body.partitions ?? current.stream.partitions,
        retention: body.retention ?? current.stream.retention,
        codec: body.codec === undefined ? current.stream.codec : body.codec,
      };
      // Fewer partitions would move keys and strand the messages of the ones removed.
      if (fields.partitions < current.stream.partitions) {
        throw new ApiError('validation_error', `A stream's partitions can only grow (it has ${current.stream.partitions}).`, { details: [{ in: 'body', pointer: '/partitions', message: 'must not be less than the current count' }] });
      }
      if (fields.codec !== null && fields.codec !== current.stream.codec) await service.checkCodec(call.db, tenant(call), fields.codec);
      const updated = await new StreamStore(call.db).update(tenant(call), idParam(call), fields, service.clock.now());
      await service.backend.provision(call.db, updated.ref);
      return { status: 200, body: updated.stream };
    },

    async deleteStream(call) {
      const current = await service.stream(call.db, tenant(call), idParam(call), { forUpdate: true });
      await new StreamStore(call.db).remove(tenant(call), idParam(call));
      await service.backend.discard(call.db, current.ref);
      return { status: 204 };
    },

    async publishMessages(call) {
      const { stream, ref } = await service.stream(call.db, tenant(call), idParam(call));
      const codec = await service.codecOf(call.db, stream);
      let messages;
      let key: string | undefined;
      if (Buffer.isBuffer(call.body)) {
        messages = encodeRaw(call.body, headerText(call, 'x-message-key') ?? null, stream, codec, service.limits);
        key = headerText(call, 'idempotency-key');
      } else {
        const body = call.body as PublishBody;
        messages = encodeBatch(body.messages, stream, codec, service.limits);
        key = body.idempotency_key ?? headerText(call, 'idempotency-key');
      }
      if (key !== undefined) call.idempotencyKey = key;
      const { appended, replayed } = await service.publish(call.db as Knex.Transaction, ref, messages, { dryRun: call.dryRun, idempotencyKey: key });
      call.notes.auditDetail = { ...(call.notes.auditDetail ?? {}), messages: appended.length, replayed };
      return { status: 201, body: { messages: appended }, ...(replayed ? { headers: { 'Idempotent-Replayed': 'true' } } : {}) };
    },

    async readStreamMessages(call) {
      const { stream, ref } = await service.stream(call.db, tenant(call), idParam(call));
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
      const codec = await service.codecOf(call.db, stream);
      return { status: 200, body: { items: found.map((m) => messageView(m, codec)) } };
    },

    async listConsumers(call) {
      const { ref } = await service.stream(call.db, tenant(call), idParam(call));
      const page = pageOf(call);
      const after = page.after ? { consumer: String(page.after[0]), partition: Number(page.after[1]) } : undefined;
      const offsets = (await new ConsumerStore(call.db).list(ref)).filter((o) => !after || o.consumer > after.consumer || (o.consumer === after.consumer && o.partition > after.partition)).slice(0, page.fetch);
      const items = [];
      for (const o of offsets) items.push({ ...o, lag: await service.backend.pending(call.db, ref, o.partition, o.committed_offset) });
      return { status: 200, body: { items } };
    },

    async commitConsumerOffsets(call) {
      const { stream, ref } = await service.stream(call.db, tenant(call), idParam(call));
      const consumer = String(call.params.consumer);
      const offsets = (call.body as { offsets: Array<{ partition: number; offset: number }> }).offsets;
      const store = new ConsumerStore(call.db);
      for (const [index, { partition, offset }] of offsets.entries()) {
        if (partition >= stream.partitions) throw new ApiError('validation_error', `The stream has no partition ${partition}.`, { details: [{ in: 'body', pointer: `/offsets/${index}/partition`, message: `must be below ${stream.partitions}` }] });
        await store.commit(ref, consumer, partition, offset, service.clock.now());
      }
      call.resourceId = `${stream.id}/${consumer}`;
      return { status: 200, body: { consumer, offsets: (await store.list(ref)).filter((o) => o.consumer === consumer) } };
    },
  };
}
