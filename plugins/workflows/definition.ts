/** A workflow as its author writes it; every revision stores one of these, immutable. */

/** A step or sink: a configured component by id, or a component type configured inline. */
export type StepRef = { component: string } | { type: string; config?: Record<string, unknown> };

export interface ErrorPolicy {
  max_attempts: number;
  /** The first retry waits this long; each further one twice as long (capped at 5 minutes). */
  backoff_ms: number;
  dead_letter_stream?: string;
}

export interface Definition {
  name: string;
  description?: string;
  /** A stream, or a source component writing into `stream` (or the stream its config names). */
  input: { stream: string } | { component: string; stream?: string };
  steps: StepRef[];
  sinks: StepRef[];
  on_error: ErrorPolicy;
  /** Allows a sink stream that feeds this workflow's input again (a deliberate loop). */
  allow_cycles?: boolean;
  /** Messages read per transaction. */
  batch_size?: number;
}

export const DEFAULT_POLICY: ErrorPolicy = { max_attempts: 3, backoff_ms: 1000 };
export const DEFAULT_BATCH = 100;
export const MAX_BACKOFF_MS = 300_000;

/** Fills defaults so every stored revision is complete (and diffs compare like with like). */
export function normalized(input: Partial<Definition> & { name: string }): Definition {
  const onError = { ...DEFAULT_POLICY, ...(input.on_error ?? {}) };
  const out: Definition = {
    name: input.name,
    input: input.input as Definition['input'],
    steps: input.steps ?? [],
    sinks: input.sinks ?? [],
    on_error: onError,
    batch_size: input.batch_size ?? DEFAULT_BATCH,
  };
  if (input.description !== undefined) out.description = input.description;
  if (input.allow_cycles !== undefined) out.allow_cycles = input.allow_cycles;
  return out;
}

/** The wait before attempt `attempts + 1` after `attempts` failures. */
export function backoffMs(policy: ErrorPolicy, attempts: number): number {
  return Math.min(policy.backoff_ms * 2 ** Math.max(0, attempts - 1), MAX_BACKOFF_MS);
}
