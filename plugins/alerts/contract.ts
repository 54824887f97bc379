import type { Knex } from 'knex';
import { extensionPoint } from '../../kernel/plugin/api.js';

/** One measured series of a signal: its labels (which workflow, stream…) and its current value. */
export interface SignalSeries {
  labels: Record<string, string>;
  value: number;
}

/**
 * A signal alert rules watch. The plugin that owns the data contributes it through
 * `alerts.signals`: the workflows plugin `error_rate`, the BPMN plugin `incidents`, and so on.
 * A rule naming a signal nobody contributes is refused (400), so a signal appears exactly when
 * the plugin that can measure it is enabled. A plain JavaScript plugin contributes
 * `{ point: { id: 'alerts.signals' }, value: { name, description, selector, measure } }`.
 */
export interface AlertSignal {
  /** The name rules use (`dlq_depth`). */
  name: string;
  description: string;
  /** The selector keys a rule may give, each with what it narrows; any other key is a 400. */
  selector: Record<string, string>;
  /**
   * The signal's series for one tenant, narrowed by the rule's selector. A series absent from the
   * answer counts as "condition not met" (its alert resolves). Runs in the evaluation's transaction.
   */
  measure(
    db: Knex | Knex.Transaction,
    tenantId: string,
    selector: Readonly<Record<string, string>>,
    now: Date,
  ): Promise<SignalSeries[]>;
}

export const alertSignals = extensionPoint<AlertSignal>('alerts.signals');
