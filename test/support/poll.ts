/**
 * The suite's one polling helper: what a test waits for happens on another connection, process,
 * broker or timer, so the test asks again until it holds rather than sleeping a guessed time.
 */

export interface UntilOptions {
  /** Names what is awaited in the failure message; the probe's own source text when absent. */
  what?: string;
  /** Pause between two probes, 50 ms by default. */
  everyMs?: number;
}

/**
 * Calls `probe` until it answers something other than undefined, null or false, and resolves with that
 * answer; fails after `ms` with what was awaited and the probe's last error (a probe that throws
 * is asked again: the service it reads may not be up yet).
 */
export async function until<T>(
  probe: () => T | undefined | null | false | Promise<T | undefined | null | false>,
  ms = 30_000,
  options: UntilOptions = {},
): Promise<T> {
  const deadline = Date.now() + ms;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined && value !== null && value !== false) return value;
      lastError = undefined;
    } catch (err) {
      lastError = err;
    }
    if (Date.now() > deadline) {
      const what = options.what ?? String(probe);
      throw new Error(`not within ${ms} ms: ${what}${lastError ? ` (last error: ${String(lastError)})` : ''}`);
    }
    await new Promise((resolve) => setTimeout(resolve, options.everyMs ?? 50));
  }
}
