import { useQueryClient } from '@tanstack/react-query';
import { Link, Outlet, useNavigate } from '@tanstack/react-router';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { onSessionEvent } from '../api/session-events';
import { browserAuth } from '../auth/browser-api';
import { stopRefreshing } from '../auth/refresh';
import { holds, useMe } from '../auth/session';
import { operations } from '../api/operations';
import { setActingTenant } from '../auth/tenant';
import { NAV, type NavEntry } from './nav';
import { TenantSwitcher } from './TenantSwitcher';
import { applyTheme, currentTheme, type Theme } from './theme';

// Loaded the first time it is opened: a first visit does not pay for the agent's code.
const AgentPanel = lazy(() => import('../agent/AgentPanel'));

function NavItem({ entry, allowed }: { entry: NavEntry; allowed: boolean }) {
  const permission = operations[entry.op].permission;
  if (!allowed)
    return (
      <span className="nav-link" aria-disabled="true" title={`Needs ${permission}`}>
        {entry.label} <span className="needs-permission">needs {permission}</span>
      </span>
    );
  return (
    <Link
      to={entry.to as '/'}
      className="nav-link"
      activeProps={{ 'aria-current': 'page', className: 'nav-link active' }}
      activeOptions={{ exact: entry.to === '/' }}
    >
      {entry.label}
    </Link>
  );
}

/** The signed-in frame: navigation that follows the caller's permissions, tenant, theme, sign-out. */
export function Shell() {
  const me = useMe();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [theme, setTheme] = useState<Theme>(currentTheme);
  const [outage, setOutage] = useState(false);
  const [agentOpen, setAgentOpen] = useState(false);
  const [agentLoaded, setAgentLoaded] = useState(false);
  const agentToggle = useRef<HTMLButtonElement>(null);
  const closeAgent = () => {
    setAgentOpen(false);
    agentToggle.current?.focus();
  };

  useEffect(
    () =>
      onSessionEvent((event) => {
        if (event.kind === 'unavailable') setOutage(true);
        else if (event.kind === 'available') setOutage(false);
        else if (event.kind === 'expired') {
          stopRefreshing();
          queryClient.clear();
          void navigate({
            to: '/sign-in',
            search: { return_to: window.location.pathname.replace(/^\/console/, '') + window.location.search },
          });
        }
      }),
    [navigate, queryClient],
  );

  const signOut = async (everywhere: boolean) => {
    await browserAuth.logout(everywhere).catch(() => undefined);
    stopRefreshing();
    setActingTenant(null);
    queryClient.clear();
    await navigate({ to: '/sign-in', search: {} });
  };

  const groups = [...new Set(NAV.map((e) => e.group))];
  return (
    <div className={agentOpen ? 'shell with-agent' : 'shell'}>
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <header className="topbar">
        <Link to="/" className="brand">
          Runtime console
        </Link>
        <div className="topbar-tools">
          {me?.account_admin ? <TenantSwitcher me={me} /> : <span className="muted">Tenant {me?.tenant_id}</span>}
          <button
            type="button"
            className="btn btn-secondary"
            aria-pressed={theme === 'dark'}
            onClick={() => {
              const next = theme === 'dark' ? 'light' : 'dark';
              applyTheme(next);
              setTheme(next);
            }}
          >
            Dark theme
          </button>
          <button
            type="button"
            ref={agentToggle}
            className="btn btn-secondary"
            aria-expanded={agentOpen}
            aria-controls={agentLoaded ? 'agent-panel' : undefined}
            onClick={() => {
              setAgentLoaded(true);
              if (agentOpen) closeAgent();
              else setAgentOpen(true);
            }}
          >
            Agent
          </button>
          <span className="muted">
            {me?.user?.username ?? me?.user?.display_name ?? me?.user?.email ?? 'signed in'}
          </span>
          <button type="button" className="btn btn-secondary" onClick={() => void signOut(false)}>
            Sign out
          </button>
          <button type="button" className="btn btn-secondary" onClick={() => void signOut(true)}>
            Sign out everywhere
          </button>
        </div>
      </header>
      {outage ? (
        <div role="status" className="outage">
          The service is unavailable; retrying…
        </div>
      ) : null}
      <nav className="sidebar" aria-label="Main">
        {groups.map((group) => (
          <div key={group} className="nav-group">
            <h2 className="nav-group-title">{group}</h2>
            <ul>
              {NAV.filter((e) => e.group === group).map((entry) => (
                <li key={entry.to}>
                  <NavItem entry={entry} allowed={holds(me, operations[entry.op].permission)} />
                </li>
              ))}
            </ul>
          </div>
        ))}
      </nav>
      <main id="main" className="content" tabIndex={-1}>
        <Outlet />
      </main>
      {agentLoaded ? (
        <Suspense fallback={null}>
          <AgentPanel open={agentOpen} onClose={closeAgent} />
        </Suspense>
      ) : null}
    </div>
  );
}
