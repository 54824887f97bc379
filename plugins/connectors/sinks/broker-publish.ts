import type { ChannelModel, ConfirmChannel } from 'amqplib';
import type { MqttClient } from 'mqtt';
import type { NatsConnection } from 'nats';
import { brokers } from '../brokers.js';
import type { ComponentType } from '../../components/contract.js';
import { payloadOf, within } from '../payload.js';
import { MqttPublishFlow } from './mqtt-flow.js';
import type { ConnectorsSettings } from '../settings.js';
import { mqttConnection, mqttOptions } from '../sources/mqtt-subscribe.js';
import { amqpUrl } from '../sources/amqp-consume.js';
import { natsConnection, natsOptions } from '../sources/nats-subscribe.js';

/**
 * A connection made on first use and made again after it breaks: sinks are at-least-once, so a
 * delivery that fails on a broken connection is retried by the workflow, on a fresh one.
 */
function lazy<T>(open: () => Promise<T>, healthy: (value: T) => boolean, close: (value: T) => Promise<void>) {
  let current: Promise<T> | undefined;
  return {
    async get(): Promise<T> {
      if (current) {
        const value = await current.catch(() => undefined);
        if (value !== undefined && healthy(value)) return value;
        if (value !== undefined) await close(value).catch(() => undefined);
      }
      current = open();
      current.catch(() => (current = undefined));
      return current;
    },
    async close(): Promise<void> {
      const value = await current?.catch(() => undefined);
      current = undefined;
      if (value !== undefined) await close(value).catch(() => undefined);
    },
  };
}

/** MQTT 5 publish, QoS 1 by default; the message id is the user property `message-id`. */
export function mqttPublishType(settings: ConnectorsSettings): ComponentType {
  return {
    name: 'mqtt.publish',
    kind: 'sink',
    summary: 'Publishes each message to an MQTT topic (MQTT 5, user property message-id)',
    config_schema: {
      type: 'object',
      additionalProperties: false,
      required: ['url', 'topic'],
      properties: {
        ...mqttConnection,
        topic: {
          type: 'string',
          minLength: 1,
          maxLength: 1024,
          description: 'The topic each message is published to.',
        },
        qos: { type: 'integer', enum: [0, 1, 2], default: 1, description: 'The QoS of each publish.' },
        retain: { type: 'boolean', default: false, description: 'Publish with the retain flag.' },
      },
    },
    create(config, where) {
      const connection = lazy<MqttClient>(
        async () => {
          const client = (await brokers.mqtt()).connect(
            config.url as string,
            mqttOptions(
              config,
              `rt-${where.tenantId}-${where.componentId ?? 'inline'}-pub-${process.pid}`,
              settings.connect_timeout_ms,
              { protocolVersion: 5, reconnectPeriod: 0 },
            ),
          );
          await within(
            settings.connect_timeout_ms,
            'connecting to the MQTT broker',
            new Promise<void>((resolve, reject) => {
              client.once('connect', () => resolve());
              client.once('error', reject);
            }),
          ).catch((err: unknown) => {
            client.end(true);
            throw err;
          });
          return client;
        },
        (client) => client.connected,
        (client) => client.endAsync(true),
      );
      const flows = new WeakMap<MqttClient, MqttPublishFlow>();
      return {
        async deliver(message) {
          const client = await connection.get();
          const { bytes, contentType } = payloadOf(message);
          let flow = flows.get(client);
          if (!flow) flows.set(client, (flow = new MqttPublishFlow(client)));
          flow.sent();
          try {
            await within(
              settings.connect_timeout_ms,
              'publishing to the MQTT broker',
              client.publishAsync(config.topic as string, bytes, {
                qos: ((config.qos as number | undefined) ?? 1) as 0 | 1 | 2,
                retain: (config.retain as boolean | undefined) ?? false,
                properties: { contentType, userProperties: { 'message-id': message.id } },
              }),
            );
          } finally {
            flow.settled();
          }
        },
        stop: () => connection.close(),
      };
    },
  };
}

/** AMQP publish on a confirm channel: resolves once the broker confirmed; `message-id` is the message id. */
export function amqpPublishType(settings: ConnectorsSettings): ComponentType {
  return {
    name: 'amqp.publish',
    kind: 'sink',
    summary: 'Publishes each message to an AMQP exchange (RabbitMQ) with confirms; message-id is the message id',
    config_schema: {
      type: 'object',
      additionalProperties: false,
      required: ['url', 'exchange', 'routing_key'],
      properties: {
        url: amqpUrl,
        exchange: {
          type: 'string',
          maxLength: 255,
          description: 'The exchange; "" is the default exchange (routing_key is then the queue).',
        },
        routing_key: { type: 'string', maxLength: 255, description: 'The routing key of each message.' },
        persistent: {
          type: 'boolean',
          default: true,
          description: 'Publish as persistent (delivery mode 2), so a durable queue keeps it across a broker restart.',
        },
        mandatory: {
          type: 'boolean',
          default: true,
          description:
            'A message no queue takes fails the delivery (retried, then dead) instead of being dropped by the broker.',
        },
      },
    },
    create(config) {
      let broken = false;
      // Ids of mandatory messages the broker returned as unroutable: it returns before it confirms.
      const returned = new Set<string>();
      const connection = lazy<{ model: ChannelModel; channel: ConfirmChannel }>(
        async () => {
          broken = false;
          // Listeners go on as the connection opens, not after `within`: a broker that drops it in
          // between (or a connection that opens after the timeout gave up) must not emit an
          // unhandled 'error' that takes the process down.
          let late = false;
          const opening = (await brokers.amqp())
            .connect(config.url as string, { timeout: settings.connect_timeout_ms })
            .then((m) => {
              m.on('error', () => (broken = true));
              m.on('close', () => (broken = true));
              if (late) void m.close().catch(() => undefined);
              return m;
            });
          const model = await within(settings.connect_timeout_ms, 'connecting to the AMQP broker', opening).catch(
            (err: unknown) => {
              late = true;
              throw err;
            },
          );
          const channel = await model.createConfirmChannel();
          channel.on('error', () => (broken = true));
          channel.on('close', () => (broken = true));
          channel.on(
            'return',
            (m: { properties: { messageId?: unknown } }) => void returned.add(String(m.properties.messageId)),
          );
          return { model, channel };
        },
        () => !broken,
        ({ model }) => model.close(),
      );
      return {
        async deliver(message) {
          const { channel } = await connection.get();
          const { bytes, contentType } = payloadOf(message);
          await within(
            settings.connect_timeout_ms,
            'publishing to the AMQP broker',
            new Promise<void>((resolve, reject) => {
              channel.publish(
                config.exchange as string,
                config.routing_key as string,
                bytes,
                {
                  messageId: message.id,
                  contentType,
                  persistent: (config.persistent as boolean | undefined) ?? true,
                  mandatory: (config.mandatory as boolean | undefined) ?? true,
                  headers: { 'idempotency-key': message.id },
                },
                (err) => {
                  if (err) reject(err instanceof Error ? err : new Error(String(err)));
                  else if (returned.delete(message.id))
                    reject(
                      new Error(
                        `the AMQP broker routed the message to no queue (exchange "${config.exchange as string}", routing key "${config.routing_key as string}")`,
                      ),
                    );
                  else resolve();
                },
              );
            }),
          );
        },
        stop: () => connection.close(),
      };
    },
  };
}

/** NATS publish with the message id as `Nats-Msg-Id` (JetStream de-duplicates on it when a stream captures the subject). */
export function natsPublishType(settings: ConnectorsSettings): ComponentType {
  return {
    name: 'nats.publish',
    kind: 'sink',
    summary: 'Publishes each message to a NATS subject with Nats-Msg-Id = the message id',
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
          description: 'The subject each message is published to.',
        },
      },
    },
    create(config) {
      const connection = lazy<NatsConnection>(
        async () =>
          within(
            settings.connect_timeout_ms,
            'connecting to NATS',
            (await brokers.nats()).connect({ ...natsOptions(config, settings.connect_timeout_ms), reconnect: false }),
          ),
        (nc) => !nc.isClosed(),
        (nc) => nc.close(),
      );
      return {
        async deliver(message) {
          const nc = await connection.get();
          const { bytes, contentType } = payloadOf(message);
          const h = (await brokers.nats()).headers();
          h.set('Nats-Msg-Id', message.id);
          h.set('Content-Type', contentType);
          nc.publish(config.subject as string, bytes, { headers: h });
          await within(settings.connect_timeout_ms, 'flushing to NATS', nc.flush());
        },
        stop: () => connection.close(),
      };
    },
  };
}
