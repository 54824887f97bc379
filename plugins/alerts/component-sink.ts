import type { Knex } from 'knex';
import { ApiError } from '../../kernel/errors.js';
import type { ComponentDirectory, ComponentType } from '../components/contract.js';

/** How a notification names a sink component in `alerts_notifications.url` (the queue's key). */
export const COMPONENT_TARGET = 'component:';

/**
 * Sends Alertmanager bodies through a tenant's sink component (`notify: [{component}]`): the
 * components plugin hands over its directory (`components.directory`, secrets in clear), the
 * component's type makes a runtime and its `deliver()` gets one message whose value is the
 * body and whose id is the notification's (the sink's idempotency key across retries).
 */
export class ComponentNotifier {
  private directory: ComponentDirectory | undefined;

  readonly receiver = { receive: (directory: ComponentDirectory): void => void (this.directory = directory) };

  constructor(private readonly types: () => readonly ComponentType[]) {}

  /** At rule create/replace: each named component exists in the tenant and is a sink that delivers (else 400). */
  async check(
    db: Knex | Knex.Transaction,
    tenantId: string,
    notify: ReadonlyArray<{ component?: string }>,
  ): Promise<void> {
    for (const [i, target] of notify.entries()) {
      if (target.component === undefined) continue;
      const problem = await this.problem(db, tenantId, target.component);
      if (problem)
        throw new ApiError('validation_error', `notify[${i}]: ${problem}`, {
          details: [{ in: 'body', pointer: `/notify/${i}/component`, message: problem }],
        });
    }
  }

  private async problem(db: Knex | Knex.Transaction, tenantId: string, id: string): Promise<string | undefined> {
    if (!this.directory) return 'components are not enabled here, so no component can be notified';
    const found = await this.directory.find(db, tenantId, id);
    if (!found) return `no component "${id}" in this tenant`;
    const type = this.types().find((t) => t.name === found.type);
    if (type?.kind !== 'sink' || !type.create)
      return `component "${id}" (type ${found.type}) is not a sink that delivers`;
    return undefined;
  }

  /** Delivers one body; throws with the reason when it cannot (the caller retries with backoff). */
  async deliver(
    db: Knex,
    tenantId: string,
    target: string,
    notificationId: string,
    payload: unknown,
    signal: AbortSignal,
  ): Promise<void> {
    const id = target.slice(COMPONENT_TARGET.length);
    const problem = await this.problem(db, tenantId, id);
    if (problem) throw new Error(problem);
    const found = (await this.directory?.find(db, tenantId, id))!;
    const type = this.types().find((t) => t.name === found.type) as ComponentType;
    const runtime = await type.create!(found.config, { tenantId, componentId: id });
    try {
      if (!runtime.deliver) throw new Error(`component "${id}" has no deliver()`);
      await runtime.deliver(
        {
          id: `alert-notification-${notificationId}`,
          key: null,
          headers: { 'content-type': 'application/json' },
          value: payload,
          body: Buffer.from(JSON.stringify(payload)),
          content_type: 'application/json',
        },
        {
          tenantId,
          componentId: id,
          workflowId: 'alerts',
          runId: `alert-notification-${notificationId}`,
          signal,
          log: () => undefined,
        },
      );
    } finally {
      await runtime.stop?.();
    }
  }
}
