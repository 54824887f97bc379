import type { Knex } from 'knex';
import { extensionPoint } from '../../kernel/plugin/api.js';
import type { KindRegistry } from './kind-registry.js';
import { decodeRefusal, encodeRefusal } from './refusals.js';
import { CodecStore } from './store.js';

/** A stream's codec as the streams plugin uses it; decode and encode throw a 400 ApiError for bad input. */
export interface StreamCodec {
  decode(bytes: Uint8Array): unknown;
  encode(value: unknown): Uint8Array;
  contentType: string;
}

/** The shape of the streams plugin's `streams.codecs` point (its contract.ts), restated so this plugin need not depend on it. */
export interface CodecResolver {
  resolve(db: Knex | Knex.Transaction, tenantId: string, codecId: string): Promise<StreamCodec | undefined>;
}

/**
 * The streams plugin's point, named by id: the contribution is read when the streams plugin is
 * enabled and ignored otherwise, so neither plugin requires the other.
 */
export const streamCodecs = extensionPoint<CodecResolver>('streams.codecs', { single: true });

/** Resolves a tenant's codec by id for the streams plugin; undefined when the tenant has no such codec. */
export function codecResolver(kinds: KindRegistry): CodecResolver {
  return {
    async resolve(db, tenantId, codecId) {
      const codec = await new CodecStore(db).get(tenantId, codecId);
      if (!codec) return undefined;
      const compiled = kinds.compile(kinds.stored(codec.kind, codec.id), codec.schema);
      return {
        contentType: compiled.contentType,
        decode(bytes) {
          try {
            return compiled.decode(bytes);
          } catch (error) {
            throw decodeRefusal(error);
          }
        },
        encode(value) {
          try {
            return compiled.encode(value);
          } catch (error) {
            throw encodeRefusal(error, '');
          }
        },
      };
    },
  };
}
