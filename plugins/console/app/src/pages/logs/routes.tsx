import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { compact, oneOf, str } from '../../kit/search';
import { shellRoute } from '../../shell/shell-route';

export const LEVELS = ['debug', 'info', 'warn', 'error'] as const;

export const logsRoute = createRoute({
  getParentRoute: () => shellRoute,
  path: 'logs',
  validateSearch: (s: Record<string, unknown>) =>
    compact({
      level: oneOf(LEVELS, s.level),
      source: str(s.source),
      since: str(s.since),
      until: str(s.until),
      live: oneOf(['on'] as const, s.live),
      cursor: str(s.cursor),
    }),
  component: lazyRouteComponent(() => import('./LogsPage'), 'LogsPage'),
});

export const routes = [logsRoute] as const;
