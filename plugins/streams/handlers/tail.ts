import type { Knex } from 'knex';
import { operationHandlers } from '../../../kernel/plugin/api.js';
import type { Handler, ServerSentEvent } from '../../../kernel/types.js';
import type { Operations } from '../generated/manifest-types.js';
import { messageView } from '../render.js';
import type { StreamsService } from '../service.js';

const BATCH = 100;

/** Resolves after `ms`, or at once when woken or aborted. */
function sleep(ms: number, signal: AbortSignal, wake: { resolve?: (() => void) | undefined }): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      wake.resolve = undefined;
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    wake.resolve = done;
  });
}

/**
 * GET /streams/{id}/tail: the stream's new messages as server-sent events (`event: message`,
 * `id: <partition>:<offset>`), from the end of each partition (or from `from_offset`). The
 * database is the truth: the reader polls every `tail_poll_ms`, and the `streams.appended` event
 * published with each commit wakes it at once, so a lost notification only delays a message.
 */
export function tailHandlers(service: StreamsService, db: Knex): Record<string, Handler> {
  return operationHandlers<Operations>({
    async tailStream(call) {
      const tenantId = call.tenantId;
      const { stream, ref } = await service.stream(call.db, tenantId, call.params.id);
      const only = call.query.partition;
      const from = call.query.from_offset;
      const positions =
        from !== undefined ? Array.from({ length: ref.partitions }, () => from) : await service.backend.ends(db, ref);
      const partitions = only !== undefined ? [only] : positions.map((_, p) => p);
      const decoders = service.decoders(db, tenantId);
      return {
        status: 200,
        async *events(signal: AbortSignal): AsyncGenerator<ServerSentEvent> {
          const wake: { resolve?: (() => void) | undefined } = {};
          let woken = false;
          const unsubscribe = service.subscribeAppended((event) => {
            if (event.tenant_id !== tenantId || event.stream_uid !== ref.uid) return;
            woken = true;
            wake.resolve?.();
          });
          try {
            while (!signal.aborted) {
              woken = false;
              let sent = 0;
              for (const partition of partitions) {
                const found = await service.backend.read(db, ref, {
                  partition,
                  fromOffset: positions[partition] ?? 0,
                  limit: BATCH,
                });
                for (const message of found) {
                  positions[partition] = message.offset + 1;
                  sent++;
                  yield {
                    id: `${message.partition}:${message.offset}`,
                    event: 'message',
                    data: messageView(message, await decoders.of(stream.codec, message)),
                  };
                }
              }
              if (sent === 0 && !woken) await sleep(service.settings.tail_poll_ms, signal, wake);
            }
          } finally {
            unsubscribe();
          }
        },
      };
    },
  });
}
