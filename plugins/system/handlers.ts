import { operationHandlers } from '../../kernel/plugin/api.js';
import type { Handler, KernelServices } from '../../kernel/types.js';
import type { Operations } from './generated/manifest-types.js';

export function systemHandlers({
  catalog,
  metrics,
  readiness,
  config,
}: Pick<KernelServices, 'catalog' | 'metrics' | 'readiness' | 'config'>): Record<string, Handler> {
  const build = config.build;
  // Written once: the start time does not change, and /health is the route load balancers poll.
  const startedAt = new Date().toISOString();
  return operationHandlers<Operations>({
    getHealth: () => ({
      status: 200,
      body: {
        status: 'ok',
        version: build.version,
        commit: build.commit,
        profile: config.profile,
        started_at: startedAt,
        uptime_seconds: Math.round(process.uptime() * 1000) / 1000,
      },
    }),
    getReady: async () => {
      const { ready, checks } = await readiness.evaluate();
      return {
        status: ready ? 200 : 503,
        body: { status: ready ? 'ready' : 'not_ready', checks },
        headers: { 'Cache-Control': 'no-store' },
      };
    },
    getLive: () => ({ status: 200, body: { status: 'alive' } }),
    getMetrics: async () => ({
      status: 200,
      body: await metrics.metrics(),
      headers: { 'Content-Type': metrics.contentType },
    }),
    getOpenApi: () => ({ status: 200, body: catalog.openapi() }),
  });
}
