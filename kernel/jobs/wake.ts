import type { Logger } from 'pino';
import type { Events } from '../events/types.js';

/** The topic instances tell each other about jobs on. */
export const WAKE_TOPIC = 'kernel.jobs.wake';

/** A job and key; a null key means every key of a keyed job. */
export type UnitRef = readonly [name: string, key: string | null];

export interface WakeMessage {
  from: string;
  /** Run these now (asked for by `trigger` on an instance that does not hold them). */
  run: UnitRef[];
  /** These leases were released: take them without waiting for them to lapse. */
  free: UnitRef[];
}

function isRef(value: unknown): value is UnitRef {
  return (
    Array.isArray(value) &&
    value.length === 2 &&
    typeof value[0] === 'string' &&
    (typeof value[1] === 'string' || value[1] === null)
  );
}

/** Reads a wake message, ignoring anything malformed (the payload is JSON from the table). */
export function parseWake(payload: unknown): WakeMessage | null {
  if (typeof payload !== 'object' || payload === null) return null;
  const { from, run, free } = payload as Record<string, unknown>;
  if (typeof from !== 'string') return null;
  const refs = (list: unknown): UnitRef[] => (Array.isArray(list) ? list.filter(isRef) : []);
  return { from, run: refs(run), free: refs(free) };
}

/** Gathers the wake-ups of one turn of the event loop into a single event. */
export function createWakeOutbox(
  events: Events | undefined,
  from: string,
  logger: Logger,
): { send(kind: 'run' | 'free', ref: UnitRef): void; flush(): Promise<void> } {
  let pending: WakeMessage = { from, run: [], free: [] };
  let scheduled: Promise<void> | undefined;

  async function flush(): Promise<void> {
    const message = pending;
    pending = { from, run: [], free: [] };
    if (!events || (message.run.length === 0 && message.free.length === 0)) return;
    await events
      .publish(WAKE_TOPIC, message)
      .catch((err: unknown) =>
        logger.warn({ err }, 'could not tell other instances about jobs; they find out when they next look'),
      );
  }

  return {
    send(kind, ref) {
      if (!events) return;
      if (!pending[kind].some(([n, k]) => n === ref[0] && k === ref[1])) pending[kind].push(ref);
      scheduled ??= new Promise<void>((resolve) => setImmediate(resolve))
        .then(flush)
        .finally(() => (scheduled = undefined));
    },
    async flush() {
      await scheduled;
      await flush();
    },
  };
}
