import type { RouteRunner } from '../dispatch.js';
import { ConformanceError } from '../manifest/conformance.js';
import { isStreaming } from '../manifest/types.js';
import { SchemaCompiler } from '../manifest/validators.js';
import type { MountedRoute } from '../http/router.js';
import { buildSteps, composeSteps } from '../pipeline/compose.js';
import { pipelineFactories } from '../pipeline/order.js';
import { accountWideList } from '../tenancy/account-wide.js';
import type { Call, Catalog, KernelServices, Reply, StepFactory, StepSlot } from '../types.js';
import type { TicketStore } from '../realtime/tickets.js';
import type { SetUpPlugin } from './setup.js';

/**
 * The `mount` phase (kernel/boot/phases.ts): each route's pipeline is composed once from the kernel's steps (and those
 * plugins added at the insertion points) around its handler; the runners go to the dispatcher.
 */
export function mountRoutes(input: {
  catalog: Catalog;
  plugins: readonly SetUpPlugin[];
  services: KernelServices;
  extraSteps: Partial<Record<StepSlot, StepFactory[]>>;
  runners: Map<string, RouteRunner>;
  tickets: TicketStore;
  /** Plugins whose schemas are this repository's, checked against JSON Schema by a test rather than at boot. */
  builtins: ReadonlySet<string>;
}): MountedRoute[] {
  const { catalog, plugins, services, runners } = input;
  const factories = pipelineFactories(
    new SchemaCompiler(catalog.manifests, input.builtins),
    input.extraSteps,
    input.tickets,
  );
  return catalog.routes.map((route) => {
    const handler = plugins.find((p) => p.id === route.plugin)?.instance.handlers[route.decl.operation];
    if (!handler)
      throw new ConformanceError([
        `plugin ${route.plugin}, operation ${route.decl.operation}: the route has no handler`,
      ]);
    const pipeline = composeSteps(
      buildSteps(route, factories, services, handler),
      accountWideList(route, handler, services),
    );
    const run: (call: Call) => Promise<Reply> = pipeline;
    // A WebSocket or event stream cannot be dispatched as one call with one reply.
    if (!isStreaming(route.decl)) runners.set(route.decl.operation, run);
    return { route, run, db: services.db };
  });
}
