import { until } from './poll.js';

/**
 * Asks for a verification until it reports every committed record chained (at most `ms`).
 * The sealer chains only below the oldest transaction still running anywhere in the PostgreSQL
 * cluster (audit/seal-store.ts), so another suite's or process's open transaction on the same server
 * holds records back for a while; that is the design, not the failure these tests look for.
 * Returns the last answer, so the caller's assertion shows what verification said.
 */
export async function untilSealed<T extends { body: { unsealed?: unknown } }>(
  verify: () => Promise<T>,
  ms = 30_000,
): Promise<T> {
  let answer = await verify();
  if (answer.body.unsealed === 0) return answer;
  // Out of time, the last answer goes to the caller's assertion, which says what verification found.
  await until(async () => (answer = await verify()).body.unsealed === 0, ms, { everyMs: 100 }).catch(() => undefined);
  return answer;
}
