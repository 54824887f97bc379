/**
 * How a broker source keys the messages it appends, so that one device's messages land in one
 * partition and keep their order however many partitions the stream has. `{from: "address"}`
 * keys by where the message arrived — the MQTT topic, the AMQP routing key, the NATS subject;
 * `{from: "payload", pointer: "/device/id"}` by a field of the JSON payload (RFC 6901 pointer;
 * a string, number or boolean). A payload that is not JSON or lacks the field is appended
 * without a key (and so spread over the partitions), never refused.
 */
export const messageKeySchema = {
  description:
    'The message key: {"from": "address"} (the MQTT topic, AMQP routing key or NATS subject) or {"from": "payload", "pointer": "/device_id"} (a field of the JSON payload). Same key, same partition, in order.',
  oneOf: [
    {
      type: 'object',
      additionalProperties: false,
      required: ['from'],
      properties: { from: { const: 'address' } },
    },
    {
      type: 'object',
      additionalProperties: false,
      required: ['from', 'pointer'],
      properties: {
        from: { const: 'payload' },
        pointer: { type: 'string', pattern: '^(/[^/]*)+$', maxLength: 1000 },
      },
    },
  ],
} as const;

/** What a source's `key` config says, read once when the source is made. */
export type KeyRule = { from: 'address' } | { from: 'payload'; pointer: string } | undefined;

function decodePointer(pointer: string): string[] {
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** The key of one received message under `rule`; `address` is its topic, routing key or subject. */
export function messageKey(rule: KeyRule, address: string, body: Uint8Array): string | null {
  if (!rule) return null;
  if (rule.from === 'address') return address;
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(body).toString('utf8'));
  } catch {
    return null;
  }
  for (const segment of decodePointer(rule.pointer)) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, segment)) return null;
    value = (value as Record<string, unknown>)[segment];
  }
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : null;
}
