import type { Call, CompiledRoute, Handler, KernelServices, Reply, Step, StepFactory } from '../types.js';

/**
 * Chains steps around a handler once, at boot. Each step calls `next()` at most once (one that
 * says `repeatsNext` may call it again after the first call settled, never while it runs); the
 * composed function is what every transport (HTTP, MCP) runs for the route.
 */
export function composeSteps(steps: readonly Step[], handler: Handler): (call: Call) => Promise<Reply> {
  return function run(call: Call): Promise<Reply> {
    const dispatch = (index: number): Promise<Reply> => {
      const step = steps[index];
      if (!step) return Promise.resolve(handler(call));
      let called = false;
      let running = false;
      return step(call, () => {
        if (called && (running || !step.repeatsNext))
          return Promise.reject(new Error('a pipeline step called next() twice'));
        called = true;
        running = true;
        const settled = () => {
          running = false;
        };
        const reply = dispatch(index + 1);
        reply.then(settled, settled);
        return reply;
      });
    };
    return dispatch(0);
  };
}

/** Builds the applicable steps for a route from the ordered factories. */
export function buildSteps(
  route: CompiledRoute,
  factories: readonly StepFactory[],
  kernel: KernelServices,
  handler?: Handler,
): Step[] {
  const steps: Step[] = [];
  for (const factory of factories) {
    const step = factory(route, kernel, handler);
    if (step) steps.push(step);
  }
  return steps;
}
