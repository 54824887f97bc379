import { randomBytes } from 'node:crypto';

let lastMs = 0;
let sequence = 0;

/** The most messages one run of ids can name: the 3 hex digits that end each id. */
export const RUN_MAX = 0x1000;

/**
 * Ids for a batch of `count` messages, created together. Each sorts by creation time: `msg_` + 9
 * base-36 digits of milliseconds + a 2-digit base-36 sequence within the millisecond (one step per
 * batch) + 13 random hex digits, all shared by the batch, then 3 hex digits numbering the message
 * in it. So a batch's ids are contiguous: they sort together in publishing order, and no other
 * batch's id falls between its first and last (another batch differs in time, sequence or random
 * digits), which lets the nats backend index a batch as one row (message-runs.ts). A batch larger
 * than one run can name continues in a new one.
 */
export function messageIds(count: number, now = Date.now()): string[] {
  const ids: string[] = [];
  while (ids.length < count) {
    if (now === lastMs) sequence = (sequence + 1) % 1296;
    else {
      lastMs = now;
      sequence = 0;
    }
    const prefix = `msg_${now.toString(36).padStart(9, '0')}${sequence.toString(36).padStart(2, '0')}${randomBytes(7).toString('hex', 0, 7).slice(0, 13)}`;
    const size = Math.min(count - ids.length, RUN_MAX);
    for (let i = 0; i < size; i++) ids.push(prefix + i.toString(16).padStart(3, '0'));
  }
  return ids;
}

/** The id of a message created on its own. */
export function messageId(now = Date.now()): string {
  return messageIds(1, now)[0] as string;
}
