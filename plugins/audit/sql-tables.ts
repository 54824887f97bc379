import type { SqlTable } from '../sql/contract.js';

/** What the SQL console reads of a tenant's audit trail (under the table's own name). */
export const auditSqlTables: readonly SqlTable[] = [{ table: 'audit_records' }];
