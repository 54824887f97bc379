import type { QueryClient } from '@tanstack/react-query';
import type { AnyRoute } from '@tanstack/react-router';
import { meQuery } from '../auth/session';
import type { router as Router } from '../router';
import { shellRoute } from './shell-route';

/**
 * Starts, before the first render, what the first page waits for. The router would ask for them
 * one after the other: the shell's check of the caller (GET /auth/me) first, then the page's
 * chunk, then the page's own queries. Started together here, they overlap; the router then finds
 * the caller's query under way (the same query, not a second request) and the chunk loaded.
 */
export function startEarlyLoads(router: typeof Router, queryClient: QueryClient): void {
  const matches = router.matchRoutes(router.latestLocation);
  // The sign-in page needs no caller: asking would only earn a 401.
  if (matches.some((match) => match.routeId === shellRoute.id)) void queryClient.prefetchQuery(meQuery);
  const routes: Readonly<Record<string, AnyRoute | undefined>> = router.routesById;
  for (const match of matches) {
    const route = routes[String(match.routeId)];
    if (route) void router.loadRouteChunk(route)?.catch(() => undefined);
  }
}
