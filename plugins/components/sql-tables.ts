import type { SqlTable } from '../sql/contract.js';

/** What the SQL console reads of a tenant's components (under the table's own name). */
export const componentSqlTables: readonly SqlTable[] = [{ table: 'components' }];
