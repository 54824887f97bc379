import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { compact, oneOf, str } from '../../kit/search';
import { shellRoute } from '../../shell/shell-route';

export const WORKFLOW_STATES = ['draft', 'running', 'paused'] as const;
export const RUN_STATUSES = ['pending', 'processed', 'failed', 'dead'] as const;
export const WORKFLOW_TABS = ['overview', 'runs', 'revisions', 'edit', 'history'] as const;

export const workflowsRoute = createRoute({
  getParentRoute: () => shellRoute,
  path: 'workflows',
  validateSearch: (search: Record<string, unknown>) =>
    compact({ state: oneOf(WORKFLOW_STATES, search.state), cursor: str(search.cursor) }),
  component: lazyRouteComponent(() => import('./WorkflowsPage'), 'WorkflowsPage'),
});

export const newWorkflowRoute = createRoute({
  getParentRoute: () => shellRoute,
  path: 'workflows/new',
  component: lazyRouteComponent(() => import('./NewWorkflowPage'), 'NewWorkflowPage'),
});

export const workflowRoute = createRoute({
  getParentRoute: () => shellRoute,
  path: 'workflows/$workflowId',
  validateSearch: (search: Record<string, unknown>) =>
    compact({
      tab: oneOf(WORKFLOW_TABS, search.tab),
      status: oneOf(RUN_STATUSES, search.status),
      cursor: str(search.cursor),
    }),
  component: lazyRouteComponent(() => import('./WorkflowPage'), 'WorkflowPage'),
});

export const runRoute = createRoute({
  getParentRoute: () => shellRoute,
  path: 'workflows/$workflowId/runs/$runId',
  component: lazyRouteComponent(() => import('./RunPage'), 'RunPage'),
});

export const routes = [workflowsRoute, newWorkflowRoute, workflowRoute, runRoute] as const;
