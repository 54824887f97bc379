/**
 * Asks for a verification until it reports every committed record chained (at most `ms`).
 * The sealer chains only below the oldest transaction still running anywhere in the PostgreSQL
 * cluster (audit/store.ts), so another suite's or process's open transaction on the same server
 * holds records back for a while; that is the design, not the failure these tests look for.
 * Returns the last answer, so the caller's assertion shows what verification said.
 */
export async function untilSealed<T extends { body: { unsealed?: unknown } }>(verify: () => Promise<T>, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  let answer = await verify();
  while (answer.body.unsealed !== 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    answer = await verify();
  }
  return answer;
}
