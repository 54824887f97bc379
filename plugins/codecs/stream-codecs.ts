import type { CodecResolver } from '../streams/contract.js';
import type { KindRegistry } from './kind-registry.js';
import { decodeRefusal, encodeRefusal } from './refusals.js';
import { CodecStore } from './store.js';

// The streams plugin's point and its types, from its contract (the one file of another plugin a
// plugin may import): the contribution is read when the streams plugin is enabled and ignored
// otherwise, so neither plugin requires the other to run.
export { streamCodecs } from '../streams/contract.js';

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
