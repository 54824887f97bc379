import { protobufCompatibility } from '../compatibility/protobuf.js';
import { CodecValueError } from './errors.js';
import { checkProtoBytes } from './protobuf/bounded-read.js';
import { compileProto, protobufSchemaSchema } from './protobuf/compile.js';
import { protoFromJson } from './protobuf/from-json.js';
import { compiledCodec } from './shared/compiled.js';
import { toJsonValue } from './shared/json-out.js';
import type { CodecKind, CompiledCodec } from './types.js';

/**
 * `protobuf`: one serialized message (no length prefix) of the type `message` names in the
 * tenant's `.proto` text. The value follows the proto3 JSON mapping with field names as written
 * in the .proto: 64-bit integers are decimal strings (always, as that mapping says), bytes are
 * base64, enums are value names (a number when the data holds a value the enum does not name),
 * NaN and Infinity are strings, and fields holding their default value (0, "", false, empty
 * lists) are left out. Unknown fields in the data are dropped.
 */
export const protobufKind: CodecKind = {
  kind: 'protobuf',
  schemaSchema: protobufSchemaSchema,
  compile(schema: unknown): CompiledCodec {
    const { type } = compileProto(schema);
    return compiledCodec('protobuf', {
      contentType: 'application/x-protobuf',
      decode(bytes) {
        checkProtoBytes(type, bytes);
        const message = type.decode(bytes);
        return toJsonValue(type.toObject(message, { longs: String, enums: String, bytes: String, json: true }));
      },
      encode(value) {
        const message = type.fromObject(protoFromJson(type, value));
        const problem = type.verify(message);
        if (problem) throw new CodecValueError(`/: ${problem}`, { pointer: '' });
        return type.encode(message).finish();
      },
    });
  },
  compatibility: protobufCompatibility,
};
