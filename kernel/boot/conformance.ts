import type { KernelConfig } from '../config/types.js';
import { registerErrorCodes } from '../errors.js';
import { checkConformance, ConformanceError } from '../manifest/conformance.js';
import type { ResolvedPlugin } from '../plugin/resolve.js';
import type { CompiledRoute, KernelServices } from '../types.js';
import type { SetUpPlugin } from './setup.js';

/**
 * The `conformance` phase (kernel/boot/phases.ts): the enabled plugins form one coherent surface — every route has
 * a handler and every handler a route, the manifests' rules hold, their error codes merge into
 * the one catalogue without clashing, and a deployment that needs credentials has an
 * authenticator. One line per problem; the kernel does not start on any.
 */
export function checkBoot(input: {
  plugins: readonly ResolvedPlugin[];
  setUp: readonly SetUpPlugin[];
  routes: readonly CompiledRoute[];
  services: KernelServices;
  config: Readonly<KernelConfig>;
}): void {
  const { plugins, setUp, routes, services, config } = input;
  checkConformance(
    plugins.map((p, i) => ({ loaded: p.loaded, handlers: Object.keys(setUp[i]?.instance.handlers ?? {}) })),
  );
  const problems = plugins.flatMap((p) => registerErrorCodes(p.definition.id, p.loaded.manifest.error_codes ?? []));
  // The first link is the dispatcher's delegation; the plugins' links follow it.
  if (
    config.auth.mode === 'required' &&
    services.authenticators.length <= 1 &&
    routes.some((r) => r.decl.permission !== 'public')
  ) {
    problems.push(
      `no authenticator is configured: enable a plugin that provides one (the identity plugin: sessions, API tokens, OIDC)${config.profile === 'production' ? '' : ', or set auth.mode "none" (RUNTIME_AUTH_MODE=none) for a local evaluation'}`,
    );
  }
  if (problems.length > 0) throw new ConformanceError(problems);
}
