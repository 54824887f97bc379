import { randomBytes } from 'node:crypto';

let lastMs = 0;
let sequence = 0;
/** Random bytes drawn 4 KiB at a time: one call per 512 ids instead of one per id (a batch makes up to 1,000). */
let pool = Buffer.alloc(0);
let used = 0;

function random8(): string {
  if (used + 8 > pool.length) {
    pool = randomBytes(4096);
    used = 0;
  }
  used += 8;
  return pool.toString('hex', used - 8, used);
}

/**
 * A message id that sorts by creation time (`msg_` + 9 base-36 digits of milliseconds + a 2-digit base-36
 * sequence within the millisecond + 16 random hex digits), so GET /messages pages in id order and
 * that order follows publishing.
 */
export function messageId(now = Date.now()): string {
  if (now === lastMs) sequence = (sequence + 1) % 1296;
  else {
    lastMs = now;
    sequence = 0;
  }
  return `msg_${now.toString(36).padStart(9, '0')}${sequence.toString(36).padStart(2, '0')}${random8()}`;
}
