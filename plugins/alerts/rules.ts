import { ApiError } from '../../kernel/errors.js';
import type { AlertSignal } from './contract.js';
import { checkWebhookUrl, type WebhookAllowance } from './outbound-guard.js';

/** Where a rule's notifications go: a webhook URL, or a sink component of the tenant (exactly one). */
export interface NotifyTarget {
  webhook_url?: string;
  component?: string;
}

export type Op = '>' | '>=' | '<' | '<=' | '==' | '!=';

export interface RuleBody {
  name: string;
  signal: string;
  selector?: Record<string, string>;
  op: Op;
  threshold: number;
  for_seconds?: number;
  severity?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  notify?: NotifyTarget[];
}

export interface Rule {
  tenant_id: string;
  id: string;
  name: string;
  signal: string;
  selector: Record<string, string>;
  op: Op;
  threshold: number;
  for_seconds: number;
  severity: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
  notify: NotifyTarget[];
  revision: number;
  created_at: string;
  updated_at: string;
}

export function holds(op: Op, value: number, threshold: number): boolean {
  switch (op) {
    case '>':
      return value > threshold;
    case '>=':
      return value >= threshold;
    case '<':
      return value < threshold;
    case '<=':
      return value <= threshold;
    case '==':
      return value === threshold;
    case '!=':
      return value !== threshold;
  }
}

/** The rule's signal, and its selector checked against the keys the signal knows (400 naming the known ones). */
export function checkRule(
  body: RuleBody,
  signals: ReadonlyMap<string, AlertSignal>,
  allowPrivate: WebhookAllowance,
): void {
  const signal = signals.get(body.signal);
  if (!signal) {
    const known = [...signals.keys()].sort().join(', ') || 'none';
    throw new ApiError('validation_error', `Unknown signal "${body.signal}"; the enabled plugins measure: ${known}.`, {
      details: [
        { in: 'body', pointer: '/signal', message: `is not a signal an enabled plugin contributes (known: ${known})` },
      ],
    });
  }
  for (const key of Object.keys(body.selector ?? {})) {
    if (!(key in signal.selector)) {
      const known = Object.keys(signal.selector).join(', ') || 'none';
      throw new ApiError('validation_error', `Signal ${signal.name} has no selector "${key}" (it takes: ${known}).`, {
        details: [
          { in: 'body', pointer: `/selector/${key}`, message: `is not a selector of ${signal.name} (known: ${known})` },
        ],
      });
    }
  }
  for (const target of body.notify ?? [])
    if (target.webhook_url !== undefined) checkWebhookUrl(target.webhook_url, allowPrivate);
}
