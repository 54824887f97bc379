import type { AuditTrail, RuntimeLog } from '../plugin/api.js';
import { SERVICE_IDS } from '../plugin/api.js';
import type { ExtensionRegistry } from '../plugin/extensions.js';
import { PluginLoadError, type ResolvedPlugin } from '../plugin/resolve.js';
import type { KernelServices } from '../types.js';

/** The audit trail a plugin writes to: whatever sink is enabled, looked up at each write. */
function auditTrail(services: KernelServices): AuditTrail {
  return {
    get enabled() {
      return services.audit !== undefined;
    },
    write: (db, entry) => services.audit?.write(db, entry) ?? Promise.resolve(),
  };
}

function runtimeLog(services: KernelServices): RuntimeLog {
  return {
    get enabled() {
      return services.logs !== undefined;
    },
    write: (record) => services.logs?.write(record) ?? Promise.resolve(),
    flush: () => services.logs?.flush?.() ?? Promise.resolve(),
  };
}

/** One service by its id, as a plugin receives it. */
function serviceById(id: string, plugin: string, services: KernelServices, registry: ExtensionRegistry): unknown {
  switch (id) {
    case 'logger':
      return services.logger.child({ plugin });
    case 'audit':
      return auditTrail(services);
    case 'logs':
      return runtimeLog(services);
    case 'extensions':
      return registry;
    default:
      return services[id as Exclude<keyof KernelServices, 'authenticators' | 'tenants'>];
  }
}

/**
 * The services a plugin receives: exactly those it declared — its typed `deps`, by the names it
 * gave them, or the ids its manifest's `requires.services` lists — plus `logger` and `clock`.
 * A service the kernel does not offer stops the boot with one line naming plugin and service.
 */
export function servicesFor(
  plugin: ResolvedPlugin,
  services: KernelServices,
  registry: ExtensionRegistry,
): Readonly<Record<string, unknown>> {
  const id = plugin.definition.id;
  const wanted: Array<[name: string, service: string]> = plugin.definition.deps
    ? Object.entries(plugin.definition.deps).map(([name, ref]) => [name, ref.id])
    : (plugin.loaded.manifest.requires?.services ?? []).map((service) => [service, service]);
  const granted: Record<string, unknown> = {
    logger: serviceById('logger', id, services, registry),
    clock: services.clock,
  };
  for (const [name, service] of wanted) {
    if (!SERVICE_IDS.has(service))
      throw new PluginLoadError(
        `plugin ${id} requires service "${service}", which the kernel does not offer (it offers: ${[...SERVICE_IDS].join(', ')})`,
      );
    granted[name] = serviceById(service, id, services, registry);
  }
  return Object.freeze(granted);
}
