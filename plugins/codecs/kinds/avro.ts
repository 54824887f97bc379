import type { Type } from 'avsc';
import { avroCompatibility } from '../compatibility/avro.js';
import { checkAvroBytes } from './avro/bounded-read.js';
import { compileAvroType } from './avro/compile.js';
import { avroFromJson } from './avro/from-json.js';
import { avroToJson } from './avro/to-json.js';
import { CodecSchemaError } from './errors.js';
import { compiledCodec } from './shared/compiled.js';
import type { CodecKind, CompiledCodec } from './types.js';

/**
 * `avro`: one Avro binary datum (no container file header, no schema-registry prefix). The
 * schema is the Avro schema as JSON. JSON mapping: longs per shared/json-out.ts, bytes and
 * fixed as base64, floats NaN, ±Infinity and -0 as the strings "NaN", "Infinity", "-Infinity",
 * "-0", unions per avro/union.ts, logical types as their underlying type. Whatever decode returns,
 * encode writes back to the same bytes (test/plugins/codecs/avro-round-trip.test.ts).
 */
export const avroKind: CodecKind = {
  kind: 'avro',
  schemaSchema: { type: ['object', 'array', 'string'] },
  compile(schema: unknown): CompiledCodec {
    const type = compileAvroType(schema);
    return avroCodec(type, (bytes) => type.fromBuffer(bytes), type);
  },
  compatibility: avroCompatibility,
  compileReader(writerSchema: unknown, readerSchema: unknown): CompiledCodec {
    const writer = compileAvroType(writerSchema);
    const reader = compileAvroType(readerSchema);
    let resolver: ReturnType<Type['createResolver']>;
    try {
      resolver = reader.createResolver(writer);
    } catch (error) {
      throw new CodecSchemaError(
        `avro schema /: data written with the older schema cannot be read with this one: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    return avroCodec(reader, (bytes) => reader.fromBuffer(bytes, resolver), writer);
  },
};

/** Bytes are checked against the type that wrote them, then read (and shown) as `type`. */
function avroCodec(type: Type, read: (bytes: Buffer) => unknown, writer: Type): CompiledCodec {
  return compiledCodec('avro', {
    contentType: 'avro/binary',
    decode(bytes) {
      checkAvroBytes(writer, bytes);
      return avroToJson(type, read(bytes));
    },
    encode: (value) => type.toBuffer(avroFromJson(type, value)),
  });
}
