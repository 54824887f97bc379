import type { DashboardSection } from '../dashboard/contract.js';

/** The dashboard's `recent_audit` section: the tenant's latest audit records (primary key (tenant_id, xact, id), read backwards). */
export const recentAuditSection: DashboardSection = {
  key: 'recent_audit',
  async build(db, tenantId) {
    const rows = (await db('audit_records')
      .where({ tenant_id: tenantId })
      .orderBy([
        { column: 'xact', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .limit(10)
      .select('id', 'at', 'operation', 'subject_id', 'resource_id', 'outcome', 'status')) as Array<
      Record<string, unknown>
    >;
    return rows.map((r) => ({ ...r, at: r.at ? new Date(r.at as string).toISOString() : null }));
  },
};
