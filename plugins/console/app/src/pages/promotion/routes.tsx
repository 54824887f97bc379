import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { compact, str } from '../../kit/search';
import { shellRoute } from '../../shell/shell-route';

export const promotionRoute = createRoute({
  getParentRoute: () => shellRoute,
  path: 'promotion',
  validateSearch: (s: Record<string, unknown>) => compact({ plan: str(s.plan) }),
  component: lazyRouteComponent(() => import('./PromotionPage'), 'PromotionPage'),
});

export const routes = [promotionRoute] as const;
