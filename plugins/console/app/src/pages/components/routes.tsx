import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { compact, oneOf, str } from '../../kit/search';
import { shellRoute } from '../../shell/shell-route';

export const COMPONENT_STATES = ['stopped', 'running', 'failed'] as const;

export const componentsRoute = createRoute({
  getParentRoute: () => shellRoute,
  path: 'components',
  validateSearch: (search: Record<string, unknown>) =>
    compact({
      state: oneOf(COMPONENT_STATES, search.state),
      type: str(search.type),
      tag: str(search.tag),
      cursor: str(search.cursor),
    }),
  component: lazyRouteComponent(() => import('./ComponentsPage'), 'ComponentsPage'),
});

export const newComponentRoute = createRoute({
  getParentRoute: () => shellRoute,
  path: 'components/new',
  validateSearch: (search: Record<string, unknown>) => compact({ type: str(search.type) }),
  component: lazyRouteComponent(() => import('./NewComponentPage'), 'NewComponentPage'),
});

export const componentRoute = createRoute({
  getParentRoute: () => shellRoute,
  path: 'components/$componentId',
  component: lazyRouteComponent(() => import('./ComponentPage'), 'ComponentPage'),
});

export const routes = [componentsRoute, newComponentRoute, componentRoute] as const;
