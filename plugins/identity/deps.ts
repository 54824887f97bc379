import type { Logger } from 'pino';
import type { AuditSink, Catalog, Clock } from '../../kernel/types.js';
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
  /** The audit sink, when an audit plugin is enabled (looked up late: it may set up after us). */
  audit(): AuditSink | undefined;
}
