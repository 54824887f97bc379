import { queryOptions } from '@tanstack/react-query';
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { api, unwrap } from '../../api/client';
import { oneOf } from '../../kit/search';
import { shellRoute } from '../../shell/shell-route';

export const WINDOWS = ['5m', '1h', '24h'] as const;
export type DashboardWindow = (typeof WINDOWS)[number];

/** The dashboard's figures over a window: the page's query, which the route's loader starts too. */
export function dashboardQuery(window: DashboardWindow) {
  return queryOptions({
    queryKey: ['dashboard', window],
    queryFn: () => unwrap(api.GET('/dashboard', { params: { query: { window } } })),
  });
}

export const dashboardRoute = createRoute({
  getParentRoute: () => shellRoute,
  path: '/',
  validateSearch: (search: Record<string, unknown>): { window?: DashboardWindow } => {
    const window = oneOf(WINDOWS, search.window);
    return window ? { window } : {};
  },
  loaderDeps: ({ search }) => ({ window: search.window ?? '1h' }),
  // Started, not awaited: the figures are asked for while the page's chunk still loads, and the
  // page shows as soon as the chunk is in (its query finds the request under way).
  loader: ({ context, deps }) => {
    void context.queryClient.prefetchQuery(dashboardQuery(deps.window));
  },
  component: lazyRouteComponent(() => import('./DashboardPage'), 'DashboardPage'),
});

export const routes = [dashboardRoute] as const;
