/**
 * A token bucket for records of unauthenticated calls: anyone can send those, so without a
 * bound a flood of bad logins would become a flood of audit rows. Records beyond the rate are
 * dropped and counted; the next record that is written carries the count, so the trail still
 * shows that (and how much) was left out.
 */
export class RecordBudget {
  private tokens: number;
  private last: number;
  private dropped = 0;

  constructor(
    private readonly perSecond: number,
    private readonly burst: number,
    private readonly now: () => number,
  ) {
    this.tokens = burst;
    this.last = now();
  }

  /** null: drop this record. Otherwise how many were dropped since the last one taken. */
  take(): { droppedBefore: number } | null {
    const t = this.now();
    this.tokens = Math.min(this.burst, this.tokens + ((t - this.last) / 1000) * this.perSecond);
    this.last = t;
    if (this.tokens < 1) {
      this.dropped += 1;
      return null;
    }
    this.tokens -= 1;
    const droppedBefore = this.dropped;
    this.dropped = 0;
    return { droppedBefore };
  }
}
