import { QueryClient } from '@tanstack/react-query';
import { createRouter } from '@tanstack/react-router';
import { isApiError } from './api/errors';
import { routeTree } from './routes';

/**
 * Retries only what may pass on a second try. The service away (503) is retried until it is back
 * (every 8 s at most), so a page recovers on its own after an outage; the network five times.
 */
function retry(failures: number, error: unknown): boolean {
  if (!isApiError(error)) return false;
  return error.status === 503 || (error.status === 0 && failures < 5);
}

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry, retryDelay: (n) => Math.min(500 * 2 ** n, 8_000), staleTime: 5_000, refetchOnWindowFocus: false },
    mutations: { retry: false },
  },
});

export const router = createRouter({
  routeTree,
  basepath: '/console',
  context: { queryClient },
  defaultPreload: 'intent',
  defaultPendingMs: 300,
  scrollRestoration: true,
});

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
}
