import { RUN_MAX } from './ids.js';

/**
 * Runs of message ids: ids that differ only in their last 3 hex digits, each one more than the
 * previous (how ids.ts names a batch). The nats backend indexes a run as one row holding its first
 * id and each message's partition and offset; the ids between are derived, here and in SQL
 * (`streams_run_id`, migration 007). Any other id is a run of one, so no id format is assumed.
 */

const SUFFIX = /^[0-9a-f]{3}$/;

function suffixOf(id: string): number | undefined {
  const tail = id.slice(-3);
  return id.length > 3 && SUFFIX.test(tail) ? parseInt(tail, 16) : undefined;
}

/** The id `n` places after the run's first (n = 0 is the first itself). */
export function idAt(firstId: string, n: number): string {
  if (n === 0) return firstId;
  return firstId.slice(0, -3) + ((suffixOf(firstId) as number) + n).toString(16).padStart(3, '0');
}

/** Where `id` sits in the run starting at `firstId` with `size` messages, or undefined when it is not one of them. */
export function placeIn(firstId: string, size: number, id: string): number | undefined {
  if (id === firstId) return 0;
  const first = suffixOf(firstId);
  const own = suffixOf(id);
  if (first === undefined || own === undefined || id.slice(0, -3) !== firstId.slice(0, -3)) return undefined;
  const n = own - first;
  return n > 0 && n < size && idAt(firstId, n) === id ? n : undefined;
}

/** Splits items (in their order) into runs of consecutive ids: [start, end) index pairs. */
export function runsOf(ids: readonly string[]): Array<[number, number]> {
  const runs: Array<[number, number]> = [];
  let start = 0;
  for (let i = 1; i <= ids.length; i++) {
    const prev = ids[i - 1] as string;
    const continues =
      i < ids.length &&
      suffixOf(prev) !== undefined &&
      (suffixOf(prev) as number) + 1 < RUN_MAX &&
      idAt(prev, 1) === ids[i];
    if (!continues) {
      runs.push([start, i]);
      start = i;
    }
  }
  return ids.length === 0 ? [] : runs;
}
