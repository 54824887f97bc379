/**
 * Turns per user per minute, kept by each instance (a token bucket per tenant and subject). Behind
 * a load balancer a user may get up to this many turns from each instance; the provider's own rate
 * limit still holds overall. Good enough for a cost guard, and it needs no write per turn.
 */
export function createRateLimiter(perMinute: number, now: () => number = Date.now) {
  const buckets = new Map<string, { tokens: number; at: number }>();
  const refillPerMs = perMinute / 60_000;
  return {
    /** undefined when the turn may go ahead, else the seconds to wait. */
    take(key: string): number | undefined {
      const t = now();
      const bucket = buckets.get(key) ?? { tokens: perMinute, at: t };
      bucket.tokens = Math.min(perMinute, bucket.tokens + (t - bucket.at) * refillPerMs);
      bucket.at = t;
      buckets.set(key, bucket);
      if (buckets.size > 10_000) for (const k of buckets.keys()) if (k !== key && buckets.delete(k)) break;
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        return undefined;
      }
      return Math.max(1, Math.ceil((1 - bucket.tokens) / refillPerMs / 1000));
    },
  };
}
