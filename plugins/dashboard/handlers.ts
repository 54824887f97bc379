import type { Knex } from 'knex';
import { ApiError } from '../../kernel/errors.js';
import { operationHandlers } from '../../kernel/plugin/api.js';
import type { Clock } from '../../kernel/types.js';
import type { DashboardSection, DashboardWindow } from './contract.js';
import type { Operations } from './generated/manifest-types.js';

const WINDOWS: Record<DashboardWindow['name'], number> = { '5m': 5 * 60_000, '1h': 3_600_000, '24h': 86_400_000 };

/** GET /dashboard: every contributed section, built concurrently for the window asked for. */
export function dashboardHandlers(db: Knex, clock: Clock, contributed: () => readonly DashboardSection[]) {
  return operationHandlers<Operations>({
    async getDashboard(call) {
      const name = call.query.window;
      const span = WINDOWS[name];
      if (!span)
        throw new ApiError('validation_error', 'window is one of 5m, 1h, 24h.', {
          details: [{ in: 'query', pointer: '/window', message: 'is not 5m, 1h or 24h' }],
        });
      const until = clock.now();
      const window: DashboardWindow = { name, since: new Date(until.getTime() - span), until };
      const tenantId = call.tenantId;
      // Later contributions replace earlier ones under the same key.
      const sections = new Map<string, DashboardSection>();
      for (const section of contributed()) sections.set(section.key, section);
      const built = await Promise.all(
        [...sections.values()].map(async (s) => [s.key, await s.build(db, tenantId, window)] as const),
      );
      return {
        status: 200,
        body: {
          window: name,
          since: window.since.toISOString(),
          until: until.toISOString(),
          sections: Object.fromEntries(built),
        },
      };
    },
  });
}
