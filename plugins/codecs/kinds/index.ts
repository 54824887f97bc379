import { avroKind } from './avro.js';
import { cborKind } from './cbor.js';
import { csvKind } from './csv.js';
import { jsonKind } from './json.js';
import { msgpackKind } from './msgpack.js';
import { protobufKind } from './protobuf.js';
import { textKind } from './text.js';
import type { CodecKind } from './types.js';

export type { CodecKind, CompatibilityProblem, CompiledCodec } from './types.js';
export { CodecSchemaError, CodecValueError } from './errors.js';
export { MAX_CONTAINERS, MAX_INPUT_BYTES, MAX_VALUE_DEPTH } from './limits.js';

/** The codec kinds the runtime ships; a third party contributes more through the codec extension point. */
export const BUILT_IN_CODEC_KINDS: readonly CodecKind[] = [jsonKind, textKind, csvKind, avroKind, protobufKind, msgpackKind, cborKind];
