import type { Knex } from 'knex';
import type { ComponentType, RuntimeMessage } from '../../components/contract.js';
import type { CodecResolver } from '../../streams/contract.js';

const CODEC_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['codec'],
  properties: { codec: { type: 'string', minLength: 1, maxLength: 200, description: 'Id of a codec of the tenant.' } },
} as const;

async function codecFor(
  db: Knex | Knex.Transaction,
  resolver: () => CodecResolver | undefined,
  tenantId: string,
  id: string,
) {
  const codecs = resolver();
  if (!codecs) throw new Error('no codecs plugin is enabled');
  const codec = await codecs.resolve(db, tenantId, id);
  if (!codec) throw new Error(`no codec "${id}" in this tenant`);
  return codec;
}

function bytesOf(message: RuntimeMessage): Uint8Array {
  if (message.body !== undefined) return message.body;
  if (typeof message.value === 'string') return Buffer.from(message.value, 'utf8');
  throw new Error('the message has no bytes to decode');
}

/** `codec.decode` (bytes → value) and `codec.encode` (value → bytes) with a tenant's codec, through the codecs plugin's resolver. */
export function codecTypes(db: Knex, resolver: () => CodecResolver | undefined): ComponentType[] {
  return [
    {
      name: 'codec.decode',
      kind: 'processor',
      summary: 'Decodes the body with a codec into the value.',
      config_schema: CODEC_SCHEMA,
      async create(config, where) {
        const codec = await codecFor(
          (where as { db?: Knex | Knex.Transaction }).db ?? db,
          resolver,
          where.tenantId,
          String(config.codec),
        );
        return {
          process: async (m) => [
            {
              id: m.id,
              key: m.key,
              headers: m.headers,
              value: codec.decode(bytesOf(m)),
              content_type: 'application/json',
            },
          ],
        };
      },
    },
    {
      name: 'codec.encode',
      kind: 'processor',
      summary: 'Encodes the value with a codec into the body.',
      config_schema: CODEC_SCHEMA,
      async create(config, where) {
        const codec = await codecFor(
          (where as { db?: Knex | Knex.Transaction }).db ?? db,
          resolver,
          where.tenantId,
          String(config.codec),
        );
        return {
          process: async (m) => [
            { id: m.id, key: m.key, headers: m.headers, body: codec.encode(m.value), content_type: codec.contentType },
          ],
        };
      },
    },
  ];
}
