import type { Jobs } from '../jobs/types.js';
import { coreExtensions } from '../plugin/api.js';
import type { ExtensionRegistry } from '../plugin/extensions.js';
import type { KernelServices, StepFactory, StepSlot } from '../types.js';

/**
 * The `wire` phase (kernel/boot/phases.ts): what the enabled plugins contributed to the kernel's own extension points
 * becomes the kernel's — the credential chain, the audit and log sinks, the tenant directory,
 * the pipeline steps at their insertion points, and the jobs. Nothing of a disabled plugin is here.
 */
export function wireContributions(
  registry: ExtensionRegistry,
  services: KernelServices,
  jobs: Jobs,
): Partial<Record<StepSlot, StepFactory[]>> {
  services.authenticators = [...services.authenticators, ...registry.all(coreExtensions.authenticators)];
  services.audit = registry.one(coreExtensions.auditSink);
  services.logs = registry.one(coreExtensions.logSink);
  services.tenants = registry.one(coreExtensions.tenantDirectory);
  for (const job of registry.all(coreExtensions.jobs)) jobs.register(job);
  const steps: Partial<Record<StepSlot, StepFactory[]>> = {};
  for (const { slot, factory } of registry.all(coreExtensions.steps)) (steps[slot] ??= []).push(factory);
  return steps;
}
