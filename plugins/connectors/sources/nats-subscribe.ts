import type { ConsumerMessages, NatsConnection, Subscription } from 'nats';
import { brokers } from '../brokers.js';
import type { ComponentType, SourceContext } from '../../components/contract.js';
import { within } from '../payload.js';
import type { ConnectorsSettings } from '../settings.js';
import { messageKey, messageKeySchema, type KeyRule } from './message-key.js';

export const natsConnection = {
  url: {
    type: 'string',
    pattern: '^(nats|tls|wss?)://',
    maxLength: 2000,
    description: 'The server, e.g. nats://127.0.0.1:4222.',
  },
  token: { type: 'string', maxLength: 1024, 'x-secret': true, description: 'A token to connect with.' },
  user: { type: 'string', maxLength: 256, description: 'A user to connect with (with pass).' },
  pass: { type: 'string', maxLength: 1024, 'x-secret': true, description: 'The user’s password.' },
} as const;

export function natsOptions(config: Record<string, unknown>, timeoutMs: number) {
  return {
    servers: config.url as string,
    timeout: timeoutMs,
    ...(config.token !== undefined ? { token: config.token as string } : {}),
    ...(config.user !== undefined
      ? { user: config.user as string, pass: (config.pass as string | undefined) ?? '' }
      : {}),
  };
}

function headersOf(h: { keys(): string[]; get(k: string): string } | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of h?.keys() ?? []) out[name.toLowerCase()] = h!.get(name);
  return out;
}

/** Appends a source may have waiting at once before it reads the next message (backpressure). */
const APPEND_WINDOW = 256;

/**
 * Lets a source read on while its appends are being written, so what arrives together is
 * appended as one batch (the components' appender); past APPEND_WINDOW waiting appends it waits
 * for the oldest. A failed append fails the source (its message was not acknowledged).
 */
function appendWindow(context: SourceContext): { admit(p: Promise<void>): Promise<void>; drain(): Promise<void> } {
  const waiting = new Set<Promise<void>>();
  return {
    async admit(p) {
      const tracked = p.then(
        () => void waiting.delete(tracked),
        (err: unknown) => {
          waiting.delete(tracked);
          context.fail(err instanceof Error ? err : new Error(String(err)));
        },
      );
      waiting.add(tracked);
      if (waiting.size >= APPEND_WINDOW) await Promise.race(waiting);
    },
    async drain() {
      await Promise.all(waiting);
    },
  };
}

/**
 * Subscribes to a subject. Without `durable`, a core NATS subscription: what is published while
 * the source is down is not seen (NATS keeps nothing). With `durable`, a JetStream durable
 * consumer on the stream that captures the subject: acknowledged once durable in the runtime's
 * stream, resumed where it left off; `Nats-Msg-Id` or the JetStream sequence is the dedup id.
 * A lost connection fails the source (no client reconnect: the runtime restarts it with backoff).
 */
export function natsSubscribeType(settings: ConnectorsSettings): ComponentType {
  return {
    name: 'nats.subscribe',
    kind: 'source',
    summary: 'Subscribes to a NATS subject (or a durable JetStream consumer) and appends each message',
    config_schema: {
      type: 'object',
      additionalProperties: false,
      required: ['url', 'subject'],
      properties: {
        ...natsConnection,
        subject: {
          type: 'string',
          minLength: 1,
          maxLength: 1024,
          description: 'The subject (* and > wildcards).',
        },
        queue: { type: 'string', maxLength: 256, description: 'Core subscriptions: a queue group.' },
        key: messageKeySchema,
        durable: {
          type: 'string',
          pattern: '^[A-Za-z0-9_-]{1,64}$',
          description: 'A JetStream durable consumer name; the subject must be captured by a JetStream stream.',
        },
      },
    },
    create(config) {
      const keyRule = config.key as KeyRule;
      let nc: NatsConnection | undefined;
      let stopping = false;
      let subscription: Subscription | undefined;
      let consumer: ConsumerMessages | undefined;
      const run = async (context: SourceContext, work: () => Promise<void>) => {
        try {
          await work();
          if (!stopping) context.fail(new Error('the NATS subscription ended'));
        } catch (err) {
          if (!stopping) context.fail(err instanceof Error ? err : new Error(String(err)));
        }
      };
      return {
        async start(context) {
          const connection = await within(
            settings.connect_timeout_ms,
            'connecting to NATS',
            (await brokers.nats()).connect({ ...natsOptions(config, settings.connect_timeout_ms), reconnect: false }),
          );
          nc = connection;
          void connection.closed().then((err) => {
            if (!stopping) context.fail(err ?? new Error('the connection to NATS closed'));
          });
          const subject = config.subject as string;
          if (typeof config.durable === 'string') {
            const jsm = await connection.jetstreamManager();
            const stream = await jsm.streams.find(subject);
            const name = config.durable;
            const existing = await jsm.consumers.info(stream, name).catch(() => undefined);
            if (!existing)
              await jsm.consumers.add(stream, {
                durable_name: name,
                ack_policy: (await brokers.nats()).AckPolicy.Explicit,
                filter_subject: subject,
              });
            const messages = await (await connection.jetstream().consumers.get(stream, name)).consume();
            consumer = messages;
            void run(context, async () => {
              const window = appendWindow(context);
              for await (const m of messages) {
                const headers = headersOf(m.headers);
                const durable = context.emit({
                  body: m.data,
                  headers: { ...headers, 'nats-subject': m.subject, 'x-source': 'nats' },
                  key: messageKey(keyRule, m.subject, m.data),
                  dedup_id: headers['nats-msg-id'] ?? `${stream}:${m.seq}`,
                });
                await window.admit(durable.then(() => m.ack()));
              }
              await window.drain();
            });
          } else {
            const sub = connection.subscribe(subject, typeof config.queue === 'string' ? { queue: config.queue } : {});
            subscription = sub;
            void run(context, async () => {
              const window = appendWindow(context);
              for await (const m of sub) {
                const headers = headersOf(m.headers);
                await window.admit(
                  context.emit({
                    body: m.data,
                    headers: { ...headers, 'nats-subject': m.subject, 'x-source': 'nats' },
                    key: messageKey(keyRule, m.subject, m.data),
                    ...(headers['nats-msg-id'] ? { dedup_id: headers['nats-msg-id'] } : {}),
                  }),
                );
              }
              await window.drain();
            });
          }
          await connection.flush();
        },
        async stop() {
          stopping = true;
          subscription?.unsubscribe();
          await consumer?.close().catch(() => undefined);
          await nc?.close().catch(() => undefined);
        },
      };
    },
  };
}
