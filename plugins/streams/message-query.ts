import type { MessageQuery } from './backend.js';
import { OPEN_DEAD_LETTER, REDRIVEN } from './dead-letter-store.js';

/**
 * The WHERE clause of GET /messages over a table of messages aliased `m` (the postgres backend's
 * messages, or the nats backend's index): the tenant, live streams only, and the query's filters.
 */
export function messageFilter(tenantId: string, query: MessageQuery): { where: string; bindings: unknown[] } {
  const where = [
    'm.tenant_id = ?',
    'EXISTS (SELECT 1 FROM streams_streams s WHERE s.tenant_id = m.tenant_id AND s.uid = m.stream_uid)',
  ];
  const bindings: unknown[] = [tenantId];
  if (query.stream) {
    where.push('m.stream_uid = ?');
    bindings.push(query.stream.uid);
  }
  if (query.since) {
    where.push('m.published_at >= ?');
    bindings.push(query.since);
  }
  if (query.until) {
    where.push('m.published_at < ?');
    bindings.push(query.until);
  }
  if (query.afterId !== undefined) {
    where.push('m.id > ?');
    bindings.push(query.afterId);
  }
  if (query.delivery?.status === 'dead') {
    where.push(OPEN_DEAD_LETTER);
    bindings.push(query.delivery.workflow);
  } else if (query.delivery?.status === 'redriven') {
    where.push(REDRIVEN);
    bindings.push(query.delivery.workflow);
  } else if (query.delivery) {
    // The message's status for a workflow is that of its latest delivery attempt.
    where.push(`EXISTS (SELECT 1 FROM streams_deliveries d WHERE d.tenant_id = m.tenant_id AND d.message_id = m.id AND d.workflow = ? AND d.status = ?
      AND d.attempt = (SELECT max(d2.attempt) FROM streams_deliveries d2 WHERE d2.tenant_id = d.tenant_id AND d2.message_id = d.message_id AND d2.workflow = d.workflow))`);
    bindings.push(query.delivery.workflow, query.delivery.status);
  }
  return { where: where.join(' AND '), bindings };
}
