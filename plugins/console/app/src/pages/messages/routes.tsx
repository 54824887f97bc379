import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { compact, oneOf, str } from '../../kit/search';
import { shellRoute } from '../../shell/shell-route';

/** A message's status for a workflow; redriven: a dead letter already replayed (the list names its replays). */
export const DELIVERY_STATUSES = ['pending', 'processed', 'filtered', 'failed', 'dead', 'redriven'] as const;

export const messagesRoute = createRoute({
  getParentRoute: () => shellRoute,
  path: 'messages',
  validateSearch: (search: Record<string, unknown>) =>
    compact({
      stream: str(search.stream),
      workflow: str(search.workflow),
      status: oneOf(DELIVERY_STATUSES, search.status),
      cursor: str(search.cursor),
    }),
  component: lazyRouteComponent(() => import('./MessagesPage'), 'MessagesPage'),
});

export const messageRoute = createRoute({
  getParentRoute: () => shellRoute,
  path: 'messages/$messageId',
  component: lazyRouteComponent(() => import('./MessagePage'), 'MessagePage'),
});

export const routes = [messagesRoute, messageRoute] as const;
