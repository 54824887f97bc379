import type { Channel, ChannelModel, ConsumeMessage } from 'amqplib';
import { brokers } from '../brokers.js';
import type { ComponentType } from '../../components/contract.js';
import { textHeaders, within } from '../payload.js';
import type { ConnectorsSettings } from '../settings.js';
import { messageKey, messageKeySchema, type KeyRule } from './message-key.js';

export const amqpUrl = {
  type: 'string',
  pattern: '^amqps?://',
  maxLength: 2000,
  'x-secret': true,
  description: 'amqp://user:password@host:5672/vhost — a secret, since it carries the password.',
} as const;

/**
 * Consumes a queue (which must exist). Messages are handled one at a time in order and
 * acknowledged only after they are durable in the stream; one that cannot be appended is
 * returned to the queue (nack, requeue) and the source fails. A closed connection or channel, or
 * a cancelled consumer, fails the source; the runtime restarts it with backoff. The AMQP
 * `message-id` property is the dedup id, so a redelivery after a lost ack appends nothing new.
 */
export function amqpConsumeType(settings: ConnectorsSettings): ComponentType {
  return {
    name: 'amqp.consume',
    kind: 'source',
    summary: 'Consumes an AMQP 0-9-1 queue (RabbitMQ) and appends each message; acknowledged once durable',
    config_schema: {
      type: 'object',
      additionalProperties: false,
      required: ['url', 'queue'],
      properties: {
        url: amqpUrl,
        queue: { type: 'string', minLength: 1, maxLength: 255, description: 'The queue to consume; it must exist.' },
        prefetch: {
          type: 'integer',
          minimum: 1,
          maximum: 1000,
          default: 16,
          description: 'Messages the broker sends before any is acknowledged; they are appended as one batch.',
        },
        key: messageKeySchema,
      },
    },
    create(config) {
      const keyRule = config.key as KeyRule;
      let connection: ChannelModel | undefined;
      let stopping = false;
      return {
        async start(context) {
          const failed = (err: unknown) => {
            if (!stopping) context.fail(err instanceof Error ? err : new Error(String(err)));
          };
          connection = await within(
            settings.connect_timeout_ms,
            'connecting to the AMQP broker',
            (await brokers.amqp()).connect(config.url as string, { timeout: settings.connect_timeout_ms }),
          );
          connection.on('error', failed);
          connection.on('close', () => failed(new Error('the connection to the AMQP broker closed')));
          const channel: Channel = await connection.createChannel();
          channel.on('error', failed);
          channel.on('close', () => failed(new Error('the AMQP channel closed')));
          await channel.checkQueue(config.queue as string);
          await channel.prefetch((config.prefetch as number | undefined) ?? 16);
          const handle = async (message: ConsumeMessage) => {
            const { properties } = message;
            const headers = {
              ...textHeaders(properties.headers as Record<string, unknown> | undefined),
              'amqp-routing-key': message.fields.routingKey,
              'x-source': 'amqp',
            };
            try {
              await context.emit({
                body: message.content,
                headers,
                key: messageKey(keyRule, message.fields.routingKey, message.content),
                ...(properties.contentType ? { content_type: String(properties.contentType) } : {}),
                ...(properties.messageId ? { dedup_id: String(properties.messageId) } : {}),
              });
              channel.ack(message);
            } catch (err) {
              try {
                channel.nack(message, false, true);
              } catch {
                // the channel is gone; the broker requeues unacknowledged messages itself
              }
              failed(err);
            }
          };
          await channel.consume(config.queue as string, (message) => {
            if (message === null)
              return failed(new Error(`the broker cancelled the consumer of ${config.queue as string}`));
            // Not chained: what the prefetch window delivers together is appended as one batch (in
            // arrival order) and each message is acknowledged once its batch is durable.
            void handle(message);
          });
        },
        async stop() {
          stopping = true;
          await connection?.close().catch(() => undefined);
        },
      };
    },
  };
}
