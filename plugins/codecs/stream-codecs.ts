import type { CodecResolver } from '../streams/contract.js';
import type { CompiledCodec } from './contract.js';
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
    async resolve(db, tenantId, codecId, writtenBy) {
      const store = new CodecStore(db);
      const codec = await store.get(tenantId, codecId);
      if (!codec) return undefined;
      const kind = kinds.stored(codec.kind, codec.id);
      let compiled: CompiledCodec = kinds.compile(kind, codec.schema);
      if (writtenBy !== undefined && writtenBy !== codec.revision) {
        // Bytes of an older revision: read with the schema that wrote them, resolved to the current
        // one where the kind can (avro). A revision gone, of another kind, or that the current schema
        // cannot read (a forced incompatible change) leaves the current schema.
        const writer = await store.revision(tenantId, codec.id, writtenBy);
        if (writer && writer.kind === codec.kind) {
          try {
            compiled = kinds.compileReader(kind, writer.schema, codec.schema);
          } catch {
            // The current schema it is; a body it cannot read shows as bytes.
          }
        }
      }
      return {
        revision: codec.revision,
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
