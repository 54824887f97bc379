import { createRequire } from 'node:module';
import { jsonKind } from './json.js';
import { textKind } from './text.js';
import type { CodecKind } from './types.js';

export type { CodecKind, CompatibilityProblem, CompiledCodec } from './types.js';
export { CodecSchemaError, CodecValueError } from './errors.js';
export { MAX_CONTAINERS, MAX_INPUT_BYTES, MAX_VALUE_DEPTH } from './limits.js';

const require = createRequire(import.meta.url);

/**
 * A kind whose implementation (and library: avsc, protobufjs, cbor2, msgpack, csv) is loaded
 * on its first use rather than at boot, where it cost every start a few hundred modules that
 * most instances never need. What the registry reads at boot (name, schema of the schema, which
 * optional methods exist) is declared here and must match the module's kind.
 */
function lazyKind(
  declared: { kind: string; schemaSchema: object | null | 'in-module'; compatibility?: true; compileReader?: true },
  module: string,
  exported: string,
): CodecKind {
  let loaded: CodecKind | undefined;
  const real = (): CodecKind => (loaded ??= (require(module) as Record<string, CodecKind>)[exported] as CodecKind);
  return {
    kind: declared.kind,
    get schemaSchema() {
      return declared.schemaSchema === 'in-module' ? real().schemaSchema : declared.schemaSchema;
    },
    compile: (schema) => real().compile(schema),
    ...(declared.compatibility
      ? {
          compatibility: (previous: unknown, next: unknown) =>
            (real().compatibility as NonNullable<CodecKind['compatibility']>)(previous, next),
        }
      : {}),
    ...(declared.compileReader
      ? {
          compileReader: (writer: unknown, reader: unknown) =>
            (real().compileReader as NonNullable<CodecKind['compileReader']>)(writer, reader),
        }
      : {}),
  };
}

/** The codec kinds the runtime ships; a third party contributes more through the codec extension point. */
export const BUILT_IN_CODEC_KINDS: readonly CodecKind[] = [
  jsonKind,
  textKind,
  lazyKind({ kind: 'csv', schemaSchema: 'in-module' }, './csv.js', 'csvKind'),
  lazyKind(
    { kind: 'avro', schemaSchema: { type: ['object', 'array', 'string'] }, compatibility: true, compileReader: true },
    './avro.js',
    'avroKind',
  ),
  lazyKind({ kind: 'protobuf', schemaSchema: 'in-module', compatibility: true }, './protobuf.js', 'protobufKind'),
  lazyKind({ kind: 'msgpack', schemaSchema: null }, './msgpack.js', 'msgpackKind'),
  lazyKind({ kind: 'cbor', schemaSchema: null }, './cbor.js', 'cborKind'),
];
