import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { compact, oneOf, str } from '../../kit/search';
import { shellRoute } from '../../shell/shell-route';

export const ALERT_STATES = ['firing', 'pending', 'resolved'] as const;

export const alertsRoute = createRoute({
  getParentRoute: () => shellRoute,
  path: 'alerts',
  validateSearch: (s: Record<string, unknown>) =>
    compact({
      view: oneOf(['alerts', 'rules', 'silences'] as const, s.view),
      state: oneOf(ALERT_STATES, s.state),
      rule: str(s.rule),
      cursor: str(s.cursor),
    }),
  component: lazyRouteComponent(() => import('./AlertsPage'), 'AlertsPage'),
});

export const routes = [alertsRoute] as const;
