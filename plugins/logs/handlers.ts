import type { Handler } from '../../kernel/types.js';
import { operationHandlers, pageOf } from '../../kernel/plugin/api.js';
import type { Operations } from './generated/manifest-types.js';
import { listLogs, toLogRecord, type LogFilter } from './store.js';

const FILTERS = ['level', 'source', 'since', 'until'] as const;

export function logHandlers(): Record<string, Handler> {
  return operationHandlers<Operations>({
    async listLogs(call) {
      const page = pageOf(call);
      const filter: LogFilter = {};
      for (const name of FILTERS) {
        const value = call.query[name];
        if (value !== undefined) filter[name] = String(value);
      }
      const rows = await listLogs(
        call.db,
        call.tenantId,
        filter,
        page.fetch,
        page.after ? Number(page.after[0]) : undefined,
      );
      return { status: 200, body: { items: rows.map(toLogRecord) } };
    },
  });
}
