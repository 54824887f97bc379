import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { compact, oneOf, str } from '../../kit/search';
import { shellRoute } from '../../shell/shell-route';

export const INSTANCE_STATES = ['active', 'completed', 'cancelled', 'incident'] as const;
export const TASK_STATES = ['open', 'completed', 'cancelled'] as const;
export const INCIDENT_STATES = ['open', 'resolved'] as const;

export const definitionsRoute = createRoute({
  getParentRoute: () => shellRoute,
  path: 'bpmn',
  validateSearch: (s: Record<string, unknown>) => compact({ process_id: str(s.process_id), cursor: str(s.cursor) }),
  component: lazyRouteComponent(() => import('./DefinitionsPage'), 'DefinitionsPage'),
});

export const definitionRoute = createRoute({
  getParentRoute: () => shellRoute,
  path: 'bpmn/definitions/$key',
  component: lazyRouteComponent(() => import('./DefinitionPage'), 'DefinitionPage'),
});

export const instancesRoute = createRoute({
  getParentRoute: () => shellRoute,
  path: 'bpmn/instances',
  validateSearch: (s: Record<string, unknown>) =>
    compact({
      state: oneOf(INSTANCE_STATES, s.state),
      process_id: str(s.process_id),
      business_key: str(s.business_key),
      cursor: str(s.cursor),
    }),
  component: lazyRouteComponent(() => import('./InstancesPage'), 'InstancesPage'),
});

export const instanceRoute = createRoute({
  getParentRoute: () => shellRoute,
  path: 'bpmn/instances/$id',
  validateSearch: (s: Record<string, unknown>) =>
    compact({ tab: oneOf(['variables', 'history', 'audit'] as const, s.tab) }),
  component: lazyRouteComponent(() => import('./InstancePage'), 'InstancePage'),
});

export const tasksRoute = createRoute({
  getParentRoute: () => shellRoute,
  path: 'bpmn/tasks',
  validateSearch: (s: Record<string, unknown>) =>
    compact({
      state: oneOf(TASK_STATES, s.state),
      assignee: str(s.assignee),
      task: str(s.task),
      cursor: str(s.cursor),
    }),
  component: lazyRouteComponent(() => import('./TasksPage'), 'TasksPage'),
});

export const incidentsRoute = createRoute({
  getParentRoute: () => shellRoute,
  path: 'bpmn/incidents',
  validateSearch: (s: Record<string, unknown>) =>
    compact({ state: oneOf(INCIDENT_STATES, s.state), cursor: str(s.cursor) }),
  component: lazyRouteComponent(() => import('./IncidentsPage'), 'IncidentsPage'),
});

export const eventsRoute = createRoute({
  getParentRoute: () => shellRoute,
  path: 'bpmn/events',
  component: lazyRouteComponent(() => import('./EventsPage'), 'EventsPage'),
});

export const routes = [
  definitionsRoute,
  definitionRoute,
  instancesRoute,
  instanceRoute,
  tasksRoute,
  incidentsRoute,
  eventsRoute,
] as const;
