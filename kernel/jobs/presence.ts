import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { acquireLease, countLive, pruneLapsed } from './lease-store.js';
import type { Lease } from './types.js';
import { clock, heldCount, keyed, live, type Job } from './unit.js';

/**
 * One lease per live instance and keyed job kind (name `~instances:<job>`, key: the holder), for
 * sharing that job's keys fairly among the instances that run it — an instance without the
 * plugin that contributes the job must not count toward its share.
 */
const PRESENCE = '~instances';
const PRESENCE_FORGOTTEN_MS = 3_600_000;

export interface Presence {
  /** Keeps this instance's presence leases and counts the live instances per keyed job (only while a keyed job exists). */
  step(now: number): void;
  /** When presence next needs a look (local ms); Infinity while a look is under way. */
  nextAt(): number;
  /** Whether this instance may take one more unit of the job (always, for a job without keys). */
  mayTake(job: Job): boolean;
  /** Whether this instance holds more of the job's keys than its share: it gives some back. */
  overShare(job: Job): boolean;
  /** The presence leases held, released at stop so the others' shares grow at once. */
  leases(): Lease[];
}

export function createPresence(o: {
  db: Knex;
  holder: string;
  leaseMs: number;
  logger: Logger;
  jobs: () => Iterable<Job>;
  track: <T>(promise: Promise<T>) => Promise<T>;
  poke: () => void;
}): Presence {
  const { db, holder, logger } = o;
  const state = { leases: new Map<string, Lease>(), busy: false, at: 0, live: new Map<string, number>() };

  /** This instance's fair part of a keyed job's keys. */
  const share = (job: Job): number => Math.ceil(live(job).length / Math.max(1, state.live.get(job.spec.name) ?? 1));

  return {
    step(now) {
      if (state.busy || now < state.at) return;
      state.busy = true;
      void o
        .track(
          (async () => {
            for (const job of [...o.jobs()].filter(keyed)) {
              const name = `${PRESENCE}:${job.spec.name}`;
              const result = await acquireLease(db, name, holder, holder, o.leaseMs);
              if ('lease' in result) state.leases.set(job.spec.name, result.lease);
              state.live.set(job.spec.name, Math.max(1, await countLive(db, name)));
              await pruneLapsed(db, name, PRESENCE_FORGOTTEN_MS);
            }
          })(),
        )
        .catch((err: unknown) => logger.debug({ err }, 'instance presence could not be renewed'))
        .finally(() => {
          state.busy = false;
          state.at = clock() + o.leaseMs / 3;
          o.poke();
        });
    },
    nextAt: () => (state.busy ? Infinity : state.at),
    mayTake: (job) => !keyed(job) || heldCount(job) < share(job),
    overShare: (job) => keyed(job) && heldCount(job) > share(job),
    leases: () => [...state.leases.values()],
  };
}
