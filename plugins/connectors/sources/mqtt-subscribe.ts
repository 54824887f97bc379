import type { IClientOptions, MqttClient } from 'mqtt';
import { brokers } from '../brokers.js';
import type { ComponentType } from '../../components/contract.js';
import { textHeaders, within } from '../payload.js';
import type { ConnectorsSettings } from '../settings.js';
import { messageKey, messageKeySchema, type KeyRule } from './message-key.js';

export const mqttConnection = {
  url: {
    type: 'string',
    pattern: '^(mqtts?|wss?|tcp)://',
    maxLength: 2000,
    description: 'The broker, e.g. mqtt://127.0.0.1:1883.',
  },
  username: { type: 'string', maxLength: 256, description: 'User name to connect with.' },
  password: { type: 'string', maxLength: 1024, 'x-secret': true, description: 'Password to connect with.' },
  client_id: {
    type: 'string',
    minLength: 1,
    maxLength: 128,
    description: 'Default: rt-<tenant>-<component>, stable so the broker keeps the session.',
  },
} as const;

/** Options shared by MQTT sources and sinks: no automatic reconnect for sources (the runtime restarts them with backoff). */
export function mqttOptions(
  config: Record<string, unknown>,
  clientId: string,
  timeoutMs: number,
  extra: IClientOptions = {},
): IClientOptions {
  return {
    clientId: (config.client_id as string | undefined) ?? clientId,
    connectTimeout: timeoutMs,
    ...(config.username !== undefined ? { username: config.username as string } : {}),
    ...(config.password !== undefined ? { password: config.password as string } : {}),
    ...extra,
  };
}

interface PacketSender {
  _sendPacket(packet: { cmd: string; messageId?: number }, cb?: (err?: Error) => void, ...rest: unknown[]): void;
}

/**
 * Holds the PUBACK of a QoS 1 message until its append is durable, without holding the client:
 * MQTT.js reads the next packet only after `handleMessage`'s callback, which also sends the
 * PUBACK, so the callback is called at once and the PUBACK it sends is kept back here until the
 * append resolves (then sent, in the order the appends resolve: arrival order). A failed append
 * sends none: the source fails, the connection closes, and the broker delivers the message again
 * from the persistent session. This reaches into MQTT.js's packet sender (`_sendPacket`, present
 * from 4.x to 5.x); the connectors' MQTT tests fail if it moves.
 */
function holdAcks(client: MqttClient): {
  holdUntil(messageId: number, durable: Promise<void>, failed: (err: unknown) => void): void;
} {
  const sender = client as unknown as PacketSender;
  if (typeof sender._sendPacket !== 'function') throw new Error('this MQTT.js has no _sendPacket to hold PUBACKs on');
  const send = sender._sendPacket.bind(client);
  const held = new Map<number, Promise<void>>();
  sender._sendPacket = (packet, cb, ...rest) => {
    const durable = packet.cmd === 'puback' && packet.messageId !== undefined ? held.get(packet.messageId) : undefined;
    if (!durable) return send(packet, cb, ...rest);
    held.delete(packet.messageId as number);
    durable.then(
      () => send(packet, undefined, ...rest),
      () => undefined,
    );
    cb?.();
  };
  return {
    holdUntil(messageId, durable, failed) {
      held.set(messageId, durable);
      durable.catch(failed);
    },
  };
}

/**
 * Subscribes to a topic. A persistent session (clean: false, a stable client id) and QoS 1 by
 * default: the broker keeps what arrives while the source is down, and a message is acknowledged
 * (PUBACK) only after it is durable in the stream (holdAcks). Messages that arrive together are
 * appended as one batch (the components' appender), so the broker's in-flight window, not one
 * message at a time, sets how much is appended per write. A closed connection fails the source; the runtime restarts it with backoff.
 */
export function mqttSubscribeType(settings: ConnectorsSettings): ComponentType {
  return {
    name: 'mqtt.subscribe',
    kind: 'source',
    summary:
      'Subscribes to an MQTT topic (persistent session, QoS 1 by default) and appends each message; acknowledged once durable',
    config_schema: {
      type: 'object',
      additionalProperties: false,
      required: ['url', 'topic'],
      properties: {
        ...mqttConnection,
        topic: { type: 'string', minLength: 1, maxLength: 1024, description: 'The topic filter (+ and # wildcards).' },
        qos: { type: 'integer', enum: [0, 1, 2], default: 1, description: 'The subscription’s QoS.' },
        key: messageKeySchema,
        session_expiry_seconds: {
          type: 'integer',
          minimum: 0,
          maximum: 4_294_967_295,
          default: 86_400,
          description: 'How long the broker keeps the session (and queues messages) while the source is down.',
        },
        receive_maximum: {
          type: 'integer',
          minimum: 1,
          maximum: 65_535,
          default: 65_535,
          description:
            'How many QoS 1 and 2 messages the broker sends before the source acknowledged them (MQTT 5 receive maximum).',
        },
      },
    },
    create(config, where) {
      const keyRule = config.key as KeyRule;
      let client: MqttClient | undefined;
      let stopping = false;
      return {
        async start(context) {
          const options = mqttOptions(
            config,
            `rt-${where.tenantId}-${where.componentId ?? 'inline'}`,
            settings.connect_timeout_ms,
            {
              clean: false,
              reconnectPeriod: 0,
              manualConnect: true,
              protocolVersion: 5,
              properties: {
                // MQTT 5 ends a session at disconnect unless it has an expiry: keep it, so the broker queues for us.
                sessionExpiryInterval: (config.session_expiry_seconds as number | undefined) ?? 86_400,
                // Without it Mosquitto hands a client 20 unacknowledged messages at a time, and past its
                // queue (1,000 by default) drops what a lagging subscriber has not taken. PUBACKs wait for
                // the append anyway (holdAcks), so a wide window only lets what waits at the broker come
                // over and be appended in the same batch: a burst becomes a few multi-row writes, not lost.
                receiveMaximum: (config.receive_maximum as number | undefined) ?? 65_535,
              },
            },
          );
          const c = (await brokers.mqtt()).connect(config.url as string, options);
          client = c;
          const acks = holdAcks(c);
          c.handleMessage = (packet, done) => {
            const properties = packet.properties;
            const headers = {
              ...textHeaders(properties?.userProperties as Record<string, unknown> | undefined),
              'mqtt-topic': packet.topic,
              'x-source': 'mqtt',
            };
            const body = Buffer.isBuffer(packet.payload) ? packet.payload : Buffer.from(packet.payload);
            const durable = context.emit({
              body,
              headers,
              key: messageKey(keyRule, packet.topic, body),
              ...(properties?.contentType ? { content_type: properties.contentType } : {}),
            });
            const failed = (err: unknown) => context.fail(err instanceof Error ? err : new Error(String(err)));
            if (packet.qos === 1 && packet.messageId !== undefined) {
              // The PUBACK waits for the append; the client reads the next message meanwhile, so
              // what arrives together is appended together (up to the broker's in-flight window).
              acks.holdUntil(packet.messageId, durable, failed);
              done();
              return;
            }
            // QoS 0 has no acknowledgement to hold; QoS 2's handshake stays one message at a time.
            durable.then(
              () => done(),
              (err: unknown) => failed(err),
            );
            if (packet.qos === 0) durable.catch(() => undefined);
          };
          c.on('close', () => {
            if (!stopping) context.fail(new Error(`the connection to the MQTT broker ${config.url as string} closed`));
          });
          c.on('error', (err) => {
            if (!stopping) context.fail(err);
          });
          c.connect();
          await within(
            settings.connect_timeout_ms,
            'connecting to the MQTT broker',
            new Promise<void>((resolve, reject) => {
              c.once('connect', () => resolve());
              c.once('error', reject);
              c.once('close', () => reject(new Error(`could not connect to the MQTT broker ${config.url as string}`)));
            }),
          );
          const granted = await c.subscribeAsync(config.topic as string, {
            qos: ((config.qos as number | undefined) ?? 1) as 0 | 1 | 2,
          });
          if (granted.some((g) => g.qos === 128))
            throw new Error(`the broker refused the subscription to ${config.topic as string}`);
        },
        async stop() {
          stopping = true;
          await client?.endAsync(true).catch(() => undefined);
        },
      };
    },
  };
}
