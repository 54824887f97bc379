import type { Knex } from 'knex';
import type { Handler } from '../../kernel/types.js';
import { pageOf } from '../../kernel/paging/page.js';
import { listRecords, toRecord, type AuditFilter } from './store.js';
import { verifyChain } from './verify.js';

const FILTERS = ['actor', 'operation', 'status', 'resource', 'since', 'until'] as const;

export function auditHandlers(): Record<string, Handler> {
  return {
    async listAudit(call) {
      const page = pageOf(call);
      const filter: AuditFilter = {};
      for (const name of FILTERS) {
        const value = call.query[name];
        if (value !== undefined) filter[name] = String(value);
      }
      const after = page.after ? Number(page.after[0]) : undefined;
      const rows = await listRecords(call.db, call.tenantId as string, filter, page.fetch, after);
      return { status: 200, body: { items: rows.map(toRecord) } };
    },

    async verifyAudit(call) {
      return { status: 200, body: await verifyChain(call.db as Knex, call.tenantId as string) };
    },
  };
}
