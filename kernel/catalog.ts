import { generateOpenApi } from './openapi/generate.js';
import type { Manifest } from './manifest/types.js';
import type { Catalog, CompiledRoute } from './types.js';

/** Every enabled route and permission; OpenAPI and the agent catalog are generated from it. */
export function createCatalog(input: {
  manifests: readonly Manifest[];
  routes: readonly CompiledRoute[];
  build: { version: string; commit: string };
  securitySchemes: () => Record<string, Record<string, unknown>>;
  /** Plugins that use the database (their routes can answer 503 when it is down). */
  usesDatabase: ReadonlySet<string>;
}): Catalog {
  const byOperation = new Map(input.routes.map((r) => [r.decl.operation, r]));
  const permissions = new Map<string, { plugin: string; description: string }>();
  for (const manifest of input.manifests) {
    for (const p of manifest.permissions ?? [])
      permissions.set(p.name, { plugin: manifest.id, description: p.description });
  }
  let openapi: Record<string, unknown> | undefined;
  return {
    routes: input.routes,
    manifests: input.manifests,
    permissions,
    byOperation: (operation) => byOperation.get(operation),
    openapi() {
      openapi ??= generateOpenApi({
        title: 'Runtime control-plane API',
        version: input.build.version,
        commit: input.build.commit,
        manifests: input.manifests,
        routes: input.routes,
        securitySchemes: input.securitySchemes(),
        usesDatabase: input.usesDatabase,
      });
      return openapi;
    },
  };
}
