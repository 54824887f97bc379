import { rootRoute } from './shell/root-route';
import { shellRoute } from './shell/shell-route';
import { signInRoute } from './pages/sign-in/routes';
import { routes as dashboard } from './pages/dashboard/routes';
import { routes as streams } from './pages/streams/routes';
import { routes as messages } from './pages/messages/routes';
import { routes as codecs } from './pages/codecs/routes';
import { routes as components } from './pages/components/routes';
import { routes as workflows } from './pages/workflows/routes';
import { routes as studio } from './pages/studio/routes';
import { routes as bpmn } from './pages/bpmn/routes';
import { routes as alerts } from './pages/alerts/routes';
import { routes as logs } from './pages/logs/routes';
import { routes as audit } from './pages/audit/routes';
import { routes as identity } from './pages/identity/routes';
import { routes as promotion } from './pages/promotion/routes';
import { routes as sql } from './pages/sql/routes';
import { routes as apiBrowser } from './pages/api-browser/routes';

/**
 * The route tree. Each domain exports its routes from `pages/<domain>/routes.tsx` (created with
 * `getParentRoute: () => shellRoute`, page components lazily imported so each is its own chunk).
 */
export const routeTree = rootRoute.addChildren([
  signInRoute,
  shellRoute.addChildren([
    ...dashboard,
    ...streams,
    ...messages,
    ...codecs,
    ...components,
    ...workflows,
    ...studio,
    ...bpmn,
    ...alerts,
    ...logs,
    ...audit,
    ...identity,
    ...promotion,
    ...sql,
    ...apiBrowser,
  ]),
]);
