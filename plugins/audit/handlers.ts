import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { ACCOUNT_TRAIL, operationHandlers, pageOf, type TenantCall } from '../../kernel/plugin/api.js';
import type { Call, Handler, Reply } from '../../kernel/types.js';
import type { Operations } from './generated/manifest-types.js';
import type { Sealer } from './sealer.js';
import { listRecords, toRecord, type AuditFilter, type Position } from './store.js';
import { verifyChain } from './verify.js';

const FILTERS = ['actor', 'operation', 'status', 'resource', 'since', 'until'] as const;

/** The keyset position a signed cursor names: the (txid, id) of the last record served. */
function positionOf(after: readonly unknown[] | undefined): Position | undefined {
  if (!after) return undefined;
  const [xact, id] = after;
  return typeof xact === 'number' && typeof id === 'string' ? { xact, id } : undefined;
}

export function auditHandlers(sealer: Sealer, logger: Logger): Record<string, Handler> {
  const list =
    <C extends Call>(trail: (call: C) => string) =>
    async (call: C): Promise<Reply> => {
      const page = pageOf(call);
      const filter: AuditFilter = {};
      for (const name of FILTERS) {
        const value = call.query[name];
        if (value !== undefined) filter[name] = String(value);
      }
      const rows = await listRecords(call.db, trail(call), filter, page.fetch, positionOf(page.after));
      return { status: 200, body: { items: rows.map(toRecord) } };
    };
  const verify =
    <C extends Call>(trail: (call: C) => string) =>
    async (call: C): Promise<Reply> => ({
      status: 200,
      body: await verifyChain(call.db as Knex, sealer, trail(call), logger),
    });
  const tenant = (call: TenantCall): string => call.tenantId;
  const account = (): string => ACCOUNT_TRAIL;

  return operationHandlers<Operations>({
    listAudit: list(tenant),
    verifyAudit: verify(tenant),
    listAccountAudit: list(account),
    verifyAccountAudit: verify(account),
  });
}
