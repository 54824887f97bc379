import type { QueryClient } from '@tanstack/react-query';
import { createRootRouteWithContext, Outlet } from '@tanstack/react-router';

export interface RouterContext {
  queryClient: QueryClient;
}

/** The root of every route: the shell (signed in) and the sign-in page hang under it. */
export const rootRoute = createRootRouteWithContext<RouterContext>()({
  component: () => <Outlet />,
  notFoundComponent: () => (
    <main id="main" className="page">
      <h1>Not found</h1>
      <p>No console page has this address.</p>
      <a href="/console/">Go to the dashboard</a>
    </main>
  ),
});
