import { contribute, coreExtensions, coreServices, createPlugin, fromRoot } from '../../kernel/plugin/api.js';
import { apiTokenAuthenticator } from './authenticators/api-token.js';
import { breakGlassAuthenticator, breakGlassReadAudit } from './authenticators/break-glass.js';
import { cookieAuthenticator } from './authenticators/cookie.js';
import { oidcAuthenticator } from './authenticators/oidc.js';
import { sessionAuthenticator } from './authenticators/session.js';
import {
  bootstrapCredential,
  createBootstrapAdmin,
  prepareBootstrapCredential,
  type BootstrapCredential,
} from './bootstrap.js';
import { resetPasswordCommand } from './commands/reset-password.js';
import type { IdentityDeps } from './deps.js';
import { browserCsrfStep } from './browser/step.js';
import { apiTokenHandlers } from './handlers/api-tokens.js';
import { authHandlers } from './handlers/auth.js';
import { browserHandlers } from './handlers/browser.js';
import { browserOidcHandlers } from './handlers/browser-oidc.js';
import { providerHandlers } from './handlers/providers.js';
import { roleHandlers } from './handlers/roles.js';
import { tenantHandlers } from './handlers/tenants.js';
import { userHandlers } from './handlers/users.js';
import { createIdentityTables } from './migrations/001_identity.js';
import { secureIdentityGrants } from './migrations/002_identity_grants.js';
import { browserSignIn } from './migrations/003_browser_sign_in.js';
import { warnShadowedRegistrations } from './oidc/shadowed.js';
import { Semaphore } from './passwords/semaphore.js';
import { passwordWorkStep } from './passwords/step.js';
import { migrationResources } from '../migration/contract.js';
import { roleResource } from './migration-resource.js';
import { builtInRoles, RoleBook } from './roles.js';
import { readSettings, type IdentitySettings } from './settings.js';
import { allTenantIds, tenantExists } from './store/tenants.js';
import type { Settings } from './generated/manifest-types.js';

/** What prepare hands setup: the settings read for the plugin's parts, the bootstrap password's hash under way. */
interface Prepared {
  settings: IdentitySettings;
  credential: ReturnType<typeof prepareBootstrapCredential>;
}

export default createPlugin<
  {
    db: typeof coreServices.db;
    clock: typeof coreServices.clock;
    catalog: typeof coreServices.catalog;
    logger: typeof coreServices.logger;
    audit: typeof coreServices.audit;
  },
  Settings,
  Prepared
>({
  id: 'identity',
  manifest: fromRoot('manifests', 'identity.json'),
  migrations: [createIdentityTables, secureIdentityGrants, browserSignIn],
  deps: {
    db: coreServices.db,
    clock: coreServices.clock,
    catalog: coreServices.catalog,
    logger: coreServices.logger,
    audit: coreServices.audit,
  },
  prepare({ settings: raw, profile, mode, newDatabase }) {
    const settings = readSettings(raw, profile, process.env);
    // The bootstrap password is hashed from here on, while the database opens. Not for a
    // maintenance command (it never creates the account behind the operator's back), nor on a
    // database that existed already (its account was made on its first start).
    const credential =
      mode === 'maintenance' || newDatabase === false ? undefined : prepareBootstrapCredential(settings);
    return { settings, credential };
  },
  setup({ db, clock, catalog, logger, audit }, context) {
    const { settings, credential } = context.prepared;
    const deps: IdentityDeps = {
      settings,
      clock,
      roles: new RoleBook(builtInRoles(catalog)),
      hashes: new Semaphore(settings.maxConcurrentHashes, settings.maxQueuedHashes),
      logger,
      catalog,
      audit,
    };
    // The credential chain, in the order of spec §5: session, API token, OIDC JWT, break-glass.
    const authenticators = [sessionAuthenticator(deps), apiTokenAuthenticator(deps), oidcAuthenticator(deps)];
    // A maintenance command never creates the bootstrap account behind the operator's back.
    const bootstrap: Promise<BootstrapCredential | null> | undefined =
      context.mode === 'maintenance' ? undefined : bootstrapCredential(db, deps, credential);
    // Observed at start; a boot that fails before then must not report it as unhandled.
    bootstrap?.catch(() => undefined);
    if (settings.breakGlass) authenticators.push(breakGlassAuthenticator(deps, settings.breakGlass));
    // Last: a browser's cookie counts only when the request names no credential itself.
    authenticators.push(cookieAuthenticator(deps));
    return {
      handlers: {
        ...authHandlers(deps),
        ...browserHandlers(deps),
        ...browserOidcHandlers(deps),
        ...tenantHandlers(deps),
        ...userHandlers(deps),
        ...roleHandlers(deps),
        ...apiTokenHandlers(deps),
        ...providerHandlers(deps),
      },
      contributions: [
        ...authenticators.map((a) => contribute(coreExtensions.authenticators, a)),
        contribute(coreExtensions.tenantDirectory, { list: allTenantIds, exists: tenantExists }),
        contribute(coreExtensions.steps, { slot: 'authenticate', factory: breakGlassReadAudit(deps) }),
        contribute(coreExtensions.steps, { slot: 'authenticate', factory: browserCsrfStep }),
        contribute(coreExtensions.steps, { slot: 'authorize', factory: passwordWorkStep(deps) }),
        contribute(migrationResources, roleResource(deps.roles, catalog)),
      ],
      async start() {
        if (!bootstrap) return;
        await createBootstrapAdmin(db, deps, await bootstrap);
        await warnShadowedRegistrations(db, deps);
      },
    };
  },
  commands: { 'reset-password': resetPasswordCommand },
});
