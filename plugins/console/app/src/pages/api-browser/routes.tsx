import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { compact, str } from '../../kit/search';
import { shellRoute } from '../../shell/shell-route';

export const apiBrowserRoute = createRoute({
  getParentRoute: () => shellRoute,
  path: 'api',
  validateSearch: (s: Record<string, unknown>) => compact({ tag: str(s.tag), op: str(s.op), q: str(s.q) }),
  component: lazyRouteComponent(() => import('./ApiBrowserPage'), 'ApiBrowserPage'),
});

export const routes = [apiBrowserRoute] as const;
