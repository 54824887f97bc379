import type { Knex } from 'knex';
import { ApiError } from '../../../kernel/errors.js';
import { afterKey, operationHandlers, pageOf, type TenantCall } from '../../../kernel/plugin/api.js';
import type { Handler } from '../../../kernel/types.js';
import type { Appended, NewMessage, StoredMessage } from '../backend.js';
import { claimDeadLetters, replaysOf } from '../dead-letter-store.js';
import { messageIds } from '../ids.js';
import { partitionFor } from '../partition.js';
import { messageView } from '../render.js';
import type { Operations } from '../generated/manifest-types.js';
import type { StreamsService } from '../service.js';
import { DeliveryStore, StreamStore, type StreamRecord } from '../store.js';

/** The header a replayed message carries, naming the message it replays. */
export const REPLAY_HEADER = 'x-replay-of';

function dateQuery(value: string | undefined): Date | undefined {
  return value === undefined ? undefined : new Date(value);
}

/** A new message with the original's body, key and headers (plus the replay header), for `target`. */
function replayOf(original: StoredMessage, target: StreamRecord, id: string): NewMessage {
  const partition =
    original.key !== null || original.partition >= target.stream.partitions
      ? partitionFor(original.key, target.stream.partitions)
      : original.partition;
  return {
    id,
    partition,
    key: original.key,
    headers: { ...original.headers, [REPLAY_HEADER]: original.id },
    contentType: original.contentType,
    body: original.body,
    replayOf: original.id,
    // The same bytes, so the same writer: the copy reads with the schema that wrote the original.
    writer: original.writer ?? null,
  };
}

/** GET /messages, GET /messages/{id}, its body, replay and redrive. */
export function messageHandlers(service: StreamsService): Record<string, Handler> {
  async function message(call: TenantCall, id: string): Promise<StoredMessage> {
    const found = await service.backend.get(call.db, call.tenantId, id);
    if (!found) throw new ApiError('not_found', `No message "${id}".`);
    return found;
  }

  /** Appends replays of `originals` to their target streams, in the call's transaction. */
  async function replay(
    call: TenantCall,
    originals: readonly StoredMessage[],
    targetId?: string,
  ): Promise<Array<Appended & { stream: string; replay_of: string }>> {
    const streams = new StreamStore(call.db);
    const out: Array<Appended & { stream: string; replay_of: string }> = [];
    const byStream = new Map<string, StoredMessage[]>();
    for (const m of originals) byStream.set(targetId ?? m.stream, [...(byStream.get(targetId ?? m.stream) ?? []), m]);
    for (const [streamId, group] of byStream) {
      const target = await streams.get(call.tenantId, streamId);
      if (!target)
        throw new ApiError(
          'not_found',
          `No stream "${streamId}".`,
          targetId
            ? { details: [{ in: 'body', pointer: '/target_stream', message: 'names no stream of this tenant' }] }
            : {},
        );
      const ids = messageIds(group.length);
      const copies = group.map((m, i) => replayOf(m, target, ids[i] as string));
      const { appended } = await service.publish(call.db as Knex.Transaction, target.ref, copies, {
        dryRun: call.dryRun,
      });
      appended.forEach((a, i) =>
        out.push({ ...a, stream: target.stream.id, replay_of: (copies[i] as NewMessage).replayOf as string }),
      );
    }
    return out;
  }

  return operationHandlers<Operations>({
    async listMessages(call) {
      const page = pageOf(call);
      const workflow = typeof call.query.workflow === 'string' ? call.query.workflow : undefined;
      const status = typeof call.query.status === 'string' ? call.query.status : undefined;
      if ((workflow === undefined) !== (status === undefined)) {
        throw new ApiError(
          'validation_error',
          'A message has a status per workflow: send workflow and status together.',
          {
            details: [
              {
                in: 'query',
                pointer: workflow === undefined ? '/workflow' : '/status',
                message: 'is required with the other',
              },
            ],
          },
        );
      }
      let stream;
      if (typeof call.query.stream === 'string') {
        stream = await new StreamStore(call.db).get(call.tenantId, call.query.stream);
        if (!stream) return { status: 200, body: { items: [] } };
      }
      const since = dateQuery(call.query.since);
      const until = dateQuery(call.query.until);
      const after = afterKey(page);
      const found = await service.backend.list(call.db, call.tenantId, {
        ...(stream ? { stream: stream.ref } : {}),
        ...(workflow !== undefined && status !== undefined ? { delivery: { workflow, status } } : {}),
        ...(since ? { since } : {}),
        ...(until ? { until } : {}),
        ...(after !== undefined ? { afterId: after } : {}),
        limit: page.fetch,
      });
      const streamCodecs = new Map<string, string | null>();
      const decoders = service.decoders(call.db, call.tenantId);
      const items = [];
      for (const m of found) {
        if (!streamCodecs.has(m.stream))
          streamCodecs.set(
            m.stream,
            (await new StreamStore(call.db).get(call.tenantId, m.stream))?.stream.codec ?? null,
          );
        items.push(messageView(m, await decoders.of(streamCodecs.get(m.stream) ?? null, m)));
      }
      // A redriven message links to its replays.
      if (status === 'redriven') {
        const replays = await replaysOf(
          call.db,
          call.tenantId,
          items.map((i) => i.id),
        );
        return { status: 200, body: { items: items.map((i) => ({ ...i, replays: replays.get(i.id) ?? [] })) } };
      }
      return { status: 200, body: { items } };
    },

    async getMessage(call) {
      const found = await message(call, call.params.id);
      const record = await new StreamStore(call.db).get(call.tenantId, found.stream);
      const codec = await service.decoders(call.db, call.tenantId).of(record?.stream.codec ?? null, found);
      const deliveries = (await new DeliveryStore(call.db).ofMessage(call.tenantId, found.id)).map(
        ({ outputs: _outputs, ...d }) => d,
      );
      const replays = (await replaysOf(call.db, call.tenantId, [found.id])).get(found.id) ?? [];
      return { status: 200, body: { ...messageView(found, codec), replays, deliveries } };
    },

    async getMessageBody(call) {
      const found = await message(call, call.params.id);
      return { status: 200, body: found.body, headers: { 'X-Message-Content-Type': found.contentType } };
    },

    async replayMessage(call) {
      const original = await message(call, call.params.id);
      const target = call.body.target_stream;
      const [created] = await replay(call, [original], target);
      call.notes.auditDetail = { ...(call.notes.auditDetail ?? {}), replay_of: original.id, message: created?.id };
      return { status: 201, body: created };
    },

    async redriveMessages(call) {
      const body = call.body;
      // The workflow's open dead letters (dead-letters.ts), taken out of the set before they are
      // replayed: what another redrive took meanwhile is not replayed twice.
      const candidates = await service.backend.list(call.db, call.tenantId, {
        delivery: { workflow: body.workflow, status: 'dead' },
        ...(body.since ? { since: new Date(body.since) } : {}),
        ...(body.until ? { until: new Date(body.until) } : {}),
        limit: body.limit,
      });
      const claimed = call.dryRun
        ? new Set(candidates.map((m) => m.id))
        : await claimDeadLetters(
            call.db,
            call.tenantId,
            body.workflow,
            candidates.map((m) => m.id),
          );
      const messages = await replay(
        call,
        candidates.filter((m) => claimed.has(m.id)),
      );
      call.notes.auditDetail = { ...(call.notes.auditDetail ?? {}), replayed: messages.length };
      return { status: 200, body: { replayed: messages.length, messages } };
    },
  });
}
