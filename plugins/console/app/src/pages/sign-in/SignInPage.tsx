import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useEffect, useState, type FormEvent } from 'react';
import { browserAuth } from '../../auth/browser-api';
import { meQuery } from '../../auth/session';
import { scheduleRefresh } from '../../auth/refresh';
import { setActingTenant } from '../../auth/tenant';
import { ErrorBanner } from '../../kit/ErrorDisplay';
import { TextField } from '../../kit/Field';
import { signInRoute } from './routes';

function useDebounced<T>(value: T, ms: number): T {
  const [current, setCurrent] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setCurrent(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return current;
}

/** Username/password sign-in, plus one button per OpenID Connect provider the tenant has. */
export function SignInPage() {
  const search = signInRoute.useSearch();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [tenant, setTenant] = useState(search.tenant ?? 'default');
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const providerTenant = useDebounced(tenant.trim(), 300);
  const providers = useQuery({
    queryKey: ['auth', 'providers', providerTenant],
    queryFn: () => browserAuth.providers(providerTenant),
    enabled: providerTenant !== '',
    retry: false,
  });
  const returnTo = search.return_to ?? '/';

  const signIn = useMutation({
    mutationFn: () => browserAuth.login(tenant.trim(), username, password),
    onSuccess: async (answer) => {
      scheduleRefresh(answer.expires_at);
      setActingTenant(null);
      queryClient.clear();
      await queryClient.fetchQuery(meQuery);
      await navigate({ href: returnTo, replace: true });
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    signIn.mutate();
  };

  return (
    <main id="main" className="sign-in">
      <div className="sign-in-card">
        <h1>Sign in to the runtime console</h1>
        {search.error ? (
          <div role="alert" className="error-banner">
            <strong>Single sign-on did not complete</strong> <code>{search.error}</code>: sign in again, or ask an
            administrator to check the identity provider.
          </div>
        ) : null}
        <form onSubmit={submit} noValidate aria-label="Sign in">
          <TextField
            label="Tenant"
            pointer="/tenant_id"
            error={signIn.error}
            value={tenant}
            onChange={setTenant}
            required
            autoComplete="organization"
          />
          <TextField
            label="Username"
            pointer="/username"
            error={signIn.error}
            value={username}
            onChange={setUsername}
            required
            autoComplete="username"
          />
          <TextField
            label="Password"
            pointer="/password"
            error={signIn.error}
            value={password}
            onChange={setPassword}
            required
            type="password"
            autoComplete="current-password"
          />
          <ErrorBanner error={signIn.error} title="Sign-in failed" />
          <button type="submit" className="btn btn-primary" aria-disabled={signIn.isPending || undefined}>
            {signIn.isPending ? 'Signing in…' : 'Sign in'}
          </button>
        </form>
        {providers.data && providers.data.items.length > 0 ? (
          <section aria-label="Single sign-on" className="providers">
            <h2>Or continue with</h2>
            {providers.data.items.map((provider) => (
              <a
                key={provider.id}
                className="btn btn-secondary"
                href={browserAuth.oidcStartUrl(providerTenant, provider.id, `/console${returnTo}`)}
              >
                Sign in with {provider.name}
              </a>
            ))}
          </section>
        ) : null}
      </div>
    </main>
  );
}
