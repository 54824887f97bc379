import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { compact, str } from '../../kit/search';
import { shellRoute } from '../../shell/shell-route';

export const codecsRoute = createRoute({
  getParentRoute: () => shellRoute,
  path: 'codecs',
  validateSearch: (search: Record<string, unknown>) => compact({ kind: str(search.kind), cursor: str(search.cursor) }),
  component: lazyRouteComponent(() => import('./CodecsPage'), 'CodecsPage'),
});

export const codecRoute = createRoute({
  getParentRoute: () => shellRoute,
  path: 'codecs/$codecId',
  component: lazyRouteComponent(() => import('./CodecPage'), 'CodecPage'),
});

export const routes = [codecsRoute, codecRoute] as const;
