import type { Knex } from 'knex';
import type { AuditEntry, AuditSink } from '../../kernel/types.js';
import type { CombinedWrite } from '../../kernel/plugin/api.js';
import { contentOf } from './chain.js';
import type { Sealer } from './sealer.js';
import { insertRecord, recordInsert } from './store.js';

/**
 * Writes each record in whatever transaction the kernel passes — the call's own, so a record
 * commits with its effect or not at all — and asks the sealer to chain it once it has committed.
 */
export function createAuditSink(sealer: Sealer): AuditSink {
  return {
    async write(db: Knex | Knex.Transaction, entry: AuditEntry) {
      const content = contentOf(entry);
      await insertRecord(db, content);
      const transaction = (db as Partial<Knex.Transaction>).executionPromise;
      if (transaction)
        transaction.then(
          () => sealer.soon(content.tenant_id),
          () => undefined,
        );
      else sealer.soon(content.tenant_id);
    },
    addTo(write: CombinedWrite, entry: AuditEntry) {
      const content = contentOf(entry);
      const { sql, bindings } = recordInsert(content);
      write.add('audit_record', sql, bindings);
      write.onCommit(() => sealer.soon(content.tenant_id));
    },
  };
}
