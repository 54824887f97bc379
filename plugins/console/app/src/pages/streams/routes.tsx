import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { compact, int, oneOf, str } from '../../kit/search';
import { shellRoute } from '../../shell/shell-route';

export const streamsRoute = createRoute({
  getParentRoute: () => shellRoute,
  path: 'streams',
  validateSearch: (search: Record<string, unknown>) => compact({ cursor: str(search.cursor) }),
  component: lazyRouteComponent(() => import('./StreamsPage'), 'StreamsPage'),
});

export const STREAM_TABS = ['messages', 'tail', 'publish', 'consumers', 'settings', 'history'] as const;
export type StreamTab = (typeof STREAM_TABS)[number];

export interface StreamSearch {
  tab?: StreamTab;
  partition?: number;
  from_offset?: number;
}

export const streamRoute = createRoute({
  getParentRoute: () => shellRoute,
  path: 'streams/$streamId',
  validateSearch: (search: Record<string, unknown>): StreamSearch =>
    compact({
      tab: oneOf(STREAM_TABS, search.tab),
      partition: int(search.partition),
      from_offset: int(search.from_offset),
    }),
  component: lazyRouteComponent(() => import('./StreamPage'), 'StreamPage'),
});

export const routes = [streamsRoute, streamRoute] as const;
