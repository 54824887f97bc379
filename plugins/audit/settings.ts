import type { Settings } from './generated/manifest-types.js';
import type { SealerOptions } from './sealer.js';

/**
 * `settings.audit` in the profile, as the manifest's settings schema leaves it: checked, with
 * defaults filled in, before setup (a wrong value stops the boot naming it). Generated.
 */
export type AuditSettings = Settings;

export function readSettings(settings: Readonly<AuditSettings>): SealerOptions {
  return {
    delayMs: settings.seal_delay_ms,
    sweepMs: settings.sweep_interval_seconds * 1000,
    batch: 1000,
    lockTimeoutMs: 5000,
  };
}
