import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { compact, oneOf, str } from '../../kit/search';
import { shellRoute } from '../../shell/shell-route';

export const workspacesRoute = createRoute({
  getParentRoute: () => shellRoute,
  path: 'studio',
  validateSearch: (s: Record<string, unknown>) => compact({ cursor: str(s.cursor) }),
  component: lazyRouteComponent(() => import('./WorkspacesPage'), 'WorkspacesPage'),
});

export const workspaceRoute = createRoute({
  getParentRoute: () => shellRoute,
  path: 'studio/$workspaceId',
  validateSearch: (s: Record<string, unknown>) =>
    compact({
      file: str(s.file),
      panel: oneOf(['run', 'tests', 'terminal', 'revisions', 'history'] as const, s.panel),
    }),
  component: lazyRouteComponent(() => import('./WorkspacePage'), 'WorkspacePage'),
});

export const routes = [workspacesRoute, workspaceRoute] as const;
