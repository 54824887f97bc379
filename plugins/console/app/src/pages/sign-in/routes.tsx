import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { str } from '../../kit/search';
import { rootRoute } from '../../shell/root-route';

export interface SignInSearch {
  /** Where to go once signed in: a console path (e.g. `/streams?cursor=…`). */
  return_to?: string;
  tenant?: string;
  /** Set by the OIDC callback when the provider refused or the exchange failed. */
  error?: string;
}

export const signInRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'sign-in',
  validateSearch: (search: Record<string, unknown>): SignInSearch => {
    const out: SignInSearch = {};
    let returnTo = str(search.return_to);
    // A refused single sign-on comes back to the page it started from with ?sign_in_error=<code>;
    // that page sends the (still signed-out) user here, the code inside return_to.
    if (returnTo?.includes('sign_in_error=')) {
      const url = new URL(returnTo, window.location.origin);
      out.error = url.searchParams.get('sign_in_error') ?? undefined;
      url.searchParams.delete('sign_in_error');
      returnTo = `${url.pathname}${url.search}`;
    }
    // Only a path inside the console: never an open redirect to another origin.
    if (returnTo?.startsWith('/') && !returnTo.startsWith('//')) out.return_to = returnTo;
    const tenant = str(search.tenant);
    if (tenant) out.tenant = tenant;
    const error = str(search.error) ?? str(search.sign_in_error);
    if (error) out.error = error;
    return out;
  },
  component: lazyRouteComponent(() => import('./SignInPage'), 'SignInPage'),
});
