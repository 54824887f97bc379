import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { compact, oneOf, str } from '../../kit/search';
import { shellRoute } from '../../shell/shell-route';

export const IDENTITY_VIEWS = ['users', 'roles', 'tokens', 'providers', 'sessions', 'tenants'] as const;

export const identityRoute = createRoute({
  getParentRoute: () => shellRoute,
  path: 'identity',
  validateSearch: (s: Record<string, unknown>) =>
    compact({ view: oneOf(IDENTITY_VIEWS, s.view), cursor: str(s.cursor) }),
  component: lazyRouteComponent(() => import('./IdentityPage'), 'IdentityPage'),
});

export const routes = [identityRoute] as const;
