import type { Logger } from 'pino';
import type { AuditTrail } from '../../kernel/plugin/api.js';
import type { Catalog, Clock } from '../../kernel/types.js';
import type { RoleBook } from './roles.js';
import type { Semaphore } from './passwords/semaphore.js';
import type { IdentitySettings } from './settings.js';

/** What the identity plugin's parts share, built once in setup(). */
export interface IdentityDeps {
  settings: IdentitySettings;
  clock: Clock;
  roles: RoleBook;
  /** Caps concurrent scrypt work (login, user creation, password change). */
  hashes: Semaphore;
  logger: Logger;
  catalog: Catalog;
  /** The audit trail (writes nowhere when no audit plugin is enabled). */
  audit: AuditTrail;
}
