import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { compact, str } from '../../kit/search';
import { shellRoute } from '../../shell/shell-route';

export const sqlRoute = createRoute({
  getParentRoute: () => shellRoute,
  path: 'sql',
  // The query lives in the URL, so a link reproduces it (it runs only when asked).
  validateSearch: (s: Record<string, unknown>) => compact({ q: str(s.q) }),
  component: lazyRouteComponent(() => import('./SqlPage'), 'SqlPage'),
});

export const routes = [sqlRoute] as const;
