import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { COMPONENT_TARGET, type ComponentNotifier } from './component-sink.js';
import { assertPublicTarget, type WebhookAllowance } from './outbound-guard.js';
import { dueNotifications, updateNotification } from './store.js';

export interface DeliveryOptions {
  allow: WebhookAllowance;
  timeoutMs: number;
  maxAttempts: number;
  now: () => Date;
  /** Sends to `component:<id>` targets through the component's deliver(). */
  components: ComponentNotifier;
}

/**
 * Posts queued notifications (oldest first) to their webhooks; a failure is retried with
 * exponential backoff up to maxAttempts, then given up with its error kept. Runs on the
 * instance holding the evaluation lease, so one instance sends each notification.
 */
export async function deliverDue(
  db: Knex,
  signal: AbortSignal,
  options: DeliveryOptions,
  logger: Logger,
): Promise<number> {
  const due = await dueNotifications(db, options.now(), 100);
  let sent = 0;
  for (const n of due) {
    if (signal.aborted) break;
    let error: string | undefined;
    try {
      if (n.url.startsWith(COMPONENT_TARGET)) {
        await options.components.deliver(
          db,
          n.tenant_id,
          n.url,
          String(n.seq),
          n.payload,
          AbortSignal.any([signal, AbortSignal.timeout(options.timeoutMs)]),
        );
      } else {
        await assertPublicTarget(n.url, options.allow);
        const res = await fetch(n.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'user-agent': 'runtime-alerts/1' },
          body: JSON.stringify(n.payload),
          redirect: 'manual',
          signal: AbortSignal.timeout(options.timeoutMs),
        });
        await res.arrayBuffer().catch(() => undefined);
        if (res.status < 200 || res.status >= 300) error = `the receiver answered ${res.status}`;
      }
    } catch (err) {
      error = (err as Error).message;
    }
    const now = options.now();
    if (!error) {
      await updateNotification(db, n.seq, { sent_at: now, attempts: n.attempts + 1, error: null });
      sent++;
      continue;
    }
    const attempts = n.attempts + 1;
    logger.warn({ url: n.url, attempts, error }, 'alert notification failed');
    const giveUp = attempts >= options.maxAttempts;
    await updateNotification(db, n.seq, {
      attempts,
      error,
      ...(giveUp ? { sent_at: now } : { next_at: new Date(now.getTime() + Math.min(300_000, 1000 * 2 ** attempts)) }),
    });
  }
  return sent;
}
