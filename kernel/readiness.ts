import type { Readiness } from './types.js';

function withDeadline(check: () => Promise<boolean>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  return Promise.race([check().catch(() => false), deadline]).finally(() => clearTimeout(timer));
}

/** Fail-closed readiness: ready only when every registered check answers true in time. */
export function createReadiness(deadlineMs: number): Readiness & { setDraining(): void } {
  const checks = new Map<string, () => Promise<boolean>>();
  let draining = false;
  return {
    add(name, check) {
      checks.set(name, check);
    },
    setDraining() {
      draining = true;
    },
    async evaluate() {
      const names = [...checks.keys()];
      const results = await Promise.all(
        names.map((name) => withDeadline(checks.get(name) as () => Promise<boolean>, deadlineMs)),
      );
      const outcome: Record<string, boolean> = Object.fromEntries(names.map((name, i) => [name, results[i] === true]));
      outcome.accepting = !draining;
      return { ready: Object.values(outcome).every(Boolean), checks: outcome };
    },
  };
}
