import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { compact, oneOf, str } from '../../kit/search';
import { shellRoute } from '../../shell/shell-route';

export const auditRoute = createRoute({
  getParentRoute: () => shellRoute,
  path: 'audit',
  validateSearch: (s: Record<string, unknown>) =>
    compact({
      scope: oneOf(['account'] as const, s.scope),
      actor: str(s.actor),
      operation: str(s.operation),
      status: str(s.status),
      resource: str(s.resource),
      since: str(s.since),
      until: str(s.until),
      record: str(s.record),
      cursor: str(s.cursor),
    }),
  component: lazyRouteComponent(() => import('./AuditPage'), 'AuditPage'),
});

export const routes = [auditRoute] as const;
