import type { IClientOptions, MqttClient } from 'mqtt';
import { brokers } from '../brokers.js';
import type { ComponentType } from '../../components/contract.js';
import { textHeaders, within } from '../payload.js';
import type { ConnectorsSettings } from '../settings.js';

export const mqttConnection = {
  url: { type: 'string', pattern: '^(mqtts?|wss?|tcp)://', maxLength: 2000 },
  username: { type: 'string', maxLength: 256 },
  password: { type: 'string', maxLength: 1024, 'x-secret': true },
  client_id: { type: 'string', minLength: 1, maxLength: 128, description: 'Default: rt-<tenant>-<component>, stable so the broker keeps the session.' },
} as const;

/** Options shared by MQTT sources and sinks: no automatic reconnect for sources (the runtime restarts them with backoff). */
export function mqttOptions(config: Record<string, unknown>, clientId: string, timeoutMs: number, extra: IClientOptions = {}): IClientOptions {
  return {
    clientId: (config.client_id as string | undefined) ?? clientId,
    connectTimeout: timeoutMs,
    ...(config.username !== undefined ? { username: config.username as string } : {}),
    ...(config.password !== undefined ? { password: config.password as string } : {}),
    ...extra,
  };
}

/**
 * Subscribes to a topic. A persistent session (clean: false, a stable client id) and QoS 1 by
 * default: the broker keeps what arrives while the source is down, and a message is acknowledged
 * (PUBACK) only after it is durable in the stream — MQTT.js's handleMessage hook holds the ack
 * until its callback. A closed connection fails the source; the runtime restarts it with backoff.
 */
export function mqttSubscribeType(settings: ConnectorsSettings): ComponentType {
  return {
    name: 'mqtt.subscribe',
    kind: 'source',
    summary: 'Subscribes to an MQTT topic (persistent session, QoS 1 by default) and appends each message; acknowledged once durable',
    config_schema: {
      type: 'object',
      additionalProperties: false,
      required: ['url', 'topic'],
      properties: { ...mqttConnection, topic: { type: 'string', minLength: 1, maxLength: 1024 }, qos: { type: 'integer', enum: [0, 1, 2], default: 1 }, session_expiry_seconds: { type: 'integer', minimum: 0, maximum: 4_294_967_295, default: 86_400, description: 'How long the broker keeps the session (and queues messages) while the source is down.' } },
    },
    create(config, where) {
      let client: MqttClient | undefined;
      let stopping = false;
      return {
        async start(context) {
          const options = mqttOptions(config, `rt-${where.tenantId}-${where.componentId ?? 'inline'}`, settings.connect_timeout_ms, {
            clean: false,
            reconnectPeriod: 0,
            manualConnect: true,
            protocolVersion: 5,
            // MQTT 5 ends a session at disconnect unless it has an expiry: keep it, so the broker queues for us.
            properties: { sessionExpiryInterval: (config.session_expiry_seconds as number | undefined) ?? 86_400 },
          });
          const c = (await brokers.mqtt()).connect(config.url as string, options);
          client = c;
          c.handleMessage = (packet, done) => {
            const properties = packet.properties;
            const headers = { ...textHeaders(properties?.userProperties as Record<string, unknown> | undefined), 'mqtt-topic': packet.topic, 'x-source': 'mqtt' };
            context
              .emit({
                body: Buffer.isBuffer(packet.payload) ? packet.payload : Buffer.from(packet.payload),
                headers,
                ...(properties?.contentType ? { content_type: properties.contentType } : {}),
              })
              .then(() => done(), (err: unknown) => context.fail(err instanceof Error ? err : new Error(String(err))));
          };
          c.on('close', () => {
            if (!stopping) context.fail(new Error(`the connection to the MQTT broker ${config.url as string} closed`));
          });
          c.on('error', (err) => {
            if (!stopping) context.fail(err);
          });
          c.connect();
          await within(settings.connect_timeout_ms, 'connecting to the MQTT broker', new Promise<void>((resolve, reject) => {
            c.once('connect', () => resolve());
            c.once('error', reject);
            c.once('close', () => reject(new Error(`could not connect to the MQTT broker ${config.url as string}`)));
          }));
          const granted = await c.subscribeAsync(config.topic as string, { qos: ((config.qos as number | undefined) ?? 1) as 0 | 1 | 2 });
          if (granted.some((g) => g.qos === 128)) throw new Error(`the broker refused the subscription to ${config.topic as string}`);
        },
        async stop() {
          stopping = true;
          await client?.endAsync(true).catch(() => undefined);
        },
      };
    },
  };
}
