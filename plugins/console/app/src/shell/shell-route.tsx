import { createRoute, redirect } from '@tanstack/react-router';
import { isApiError } from '../api/errors';
import { meQuery } from '../auth/session';
import { Shell } from './Shell';
import { rootRoute } from './root-route';

/**
 * The signed-in layout. Loading it needs the caller (GET /auth/me); without a session the user
 * goes to sign-in, and comes back to the same address afterwards.
 */
export const shellRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: 'shell',
  beforeLoad: async ({ context, location }) => {
    try {
      await context.queryClient.ensureQueryData(meQuery);
    } catch (err) {
      if (isApiError(err) && err.status === 401)
        throw redirect({ to: '/sign-in', search: { return_to: location.href } });
      throw err;
    }
  },
  component: Shell,
});
