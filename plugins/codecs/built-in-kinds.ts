import { BUILT_IN_CODEC_KINDS } from './kinds/index.js';
import type { CodecKind, CompatibilityProblem } from './contract.js';

/** `settings.codecs.avro_compatibility`: which readers a schema change must keep working. */
export type AvroCompatibility = 'full' | 'backward';

/**
 * Avro compatibility both ways (Confluent's FULL): new readers read old data (backward) and
 * readers still on the old schema read new data (forward). Backward alone lets a field without
 * default be removed, which strands every consumer not yet upgraded; the issue counts that as a
 * break, so `full` is the default. A forward problem says which side it strands.
 */
function fullAvro(kind: CodecKind, backward: NonNullable<CodecKind['compatibility']>): CodecKind {
  return {
    ...kind,
    compatibility(previous: unknown, next: unknown): CompatibilityProblem[] {
      const forward = backward(next, previous).map((p) => ({
        path: p.path,
        problem: `readers still on the previous schema cannot read new data: ${p.problem}`,
      }));
      return [...backward(previous, next), ...forward];
    },
  };
}

/** The kinds this plugin contributes to its own extension point, avro checked as the settings say. */
export function builtInKinds(avro: AvroCompatibility): CodecKind[] {
  return BUILT_IN_CODEC_KINDS.map((kind) =>
    kind.kind === 'avro' && avro === 'full' && kind.compatibility ? fullAvro(kind, kind.compatibility) : kind,
  );
}
