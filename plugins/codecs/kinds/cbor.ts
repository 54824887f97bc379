import { decode, encode, Tag } from 'cbor2';
import { CodecSchemaError, CodecValueError } from './errors.js';
import { checkCborBytes } from './cbor/scan.js';
import { compiledCodec } from './shared/compiled.js';
import { fromJsonValue } from './shared/json-in.js';
import { toJsonValue } from './shared/json-out.js';
import type { CodecKind, CompiledCodec } from './types.js';

/** Bignums beyond this many bytes (256 bits) are refused: turning a huge one into decimal text takes quadratic time. */
const MAX_BIGNUM_BYTES = 32;
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;

/**
 * The tags this codec gives a meaning, on top of cbor2 reading every tag as a plain Tag (its
 * global registry, which would build RegExps, URLs, Symbols or decode embedded CBOR and JSON,
 * is switched off): dates (0, 1) and bignums (2, 3). Any other tag reads as the value it tags.
 */
function unwrapTag(value: object): { value: unknown } | undefined {
  if (!(value instanceof Tag)) return undefined;
  const { contents } = value;
  switch (Number(value.tag)) {
    case 0:
      if (typeof contents !== 'string' || !RFC3339.test(contents))
        throw new CodecValueError('a date (tag 0) is not an RFC 3339 string');
      return { value: new Date(contents) };
    case 1:
      if (typeof contents !== 'number' && typeof contents !== 'bigint')
        throw new CodecValueError('a date (tag 1) is not a number of seconds');
      return { value: new Date(Number(contents) * 1000) };
    case 2:
    case 3: {
      if (!(contents instanceof Uint8Array))
        throw new CodecValueError(`a bignum (tag ${String(value.tag)}) is not a byte string`);
      if (contents.length > MAX_BIGNUM_BYTES)
        throw new CodecValueError(`a bignum longer than ${MAX_BIGNUM_BYTES} bytes is not supported`);
      const magnitude = contents.length === 0 ? 0n : BigInt(`0x${Buffer.from(contents).toString('hex')}`);
      return { value: Number(value.tag) === 2 ? magnitude : -1n - magnitude };
    }
    default:
      return { value: contents };
  }
}

/**
 * `cbor`: one CBOR data item (RFC 8949). No schema. Decoded values follow shared/json-out.ts
 * (byte strings → base64, dates → RFC 3339, bignums → numbers or decimal strings, maps with
 * non-string keys → objects with string keys, other tags → the value they tag). Encode writes
 * JSON values with CBOR's preferred (shortest) serialization.
 */
export const cborKind: CodecKind = {
  kind: 'cbor',
  schemaSchema: null,
  compile(schema: unknown): CompiledCodec {
    if (schema !== undefined && schema !== null) throw new CodecSchemaError('cbor codecs take no schema');
    return compiledCodec('cbor', {
      contentType: 'application/cbor',
      decode(bytes) {
        checkCborBytes(bytes);
        return toJsonValue(decode(bytes, { ignoreGlobalTags: true }), { unwrap: unwrapTag });
      },
      encode: (value) => encode(fromJsonValue(value)),
    });
  },
};
