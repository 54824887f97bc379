import { Decoder, Encoder } from '@msgpack/msgpack';
import { CodecSchemaError } from './errors.js';
import { checkMsgpackBytes } from './msgpack/scan.js';
import { compiledCodec } from './shared/compiled.js';
import { fromJsonValue } from './shared/json-in.js';
import { toJsonValue } from './shared/json-out.js';
import type { CodecKind, CompiledCodec } from './types.js';

// 64-bit integers decode to bigint (json-out.ts decides number or string). The library refuses
// a `__proto__` map key and map keys that are not strings or numbers, with a clear message.
const decoder = new Decoder({ useBigInt64: true });
const encoder = new Encoder();

/**
 * `msgpack`: one MessagePack value. No schema. Decoded values follow shared/json-out.ts (bin →
 * base64, timestamps (extension -1) → RFC 3339, integer map keys → strings); other extension
 * types are refused. Encode writes JSON values, integers as integers (up to 64 bits).
 */
export const msgpackKind: CodecKind = {
  kind: 'msgpack',
  schemaSchema: null,
  compile(schema: unknown): CompiledCodec {
    if (schema !== undefined && schema !== null) throw new CodecSchemaError('msgpack codecs take no schema');
    return compiledCodec('msgpack', {
      contentType: 'application/vnd.msgpack',
      decode(bytes) {
        checkMsgpackBytes(bytes);
        return toJsonValue(decoder.decode(bytes));
      },
      encode: (value) => encoder.encode(fromJsonValue(value)),
    });
  },
};
