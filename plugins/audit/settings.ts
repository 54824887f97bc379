import type { SealerOptions } from './sealer.js';

/** The audit plugin's settings (`settings.audit` in the config profile). */
export class AuditSettingsError extends Error {
  constructor(problem: string) {
    super(`settings.audit: ${problem}`);
    this.name = 'AuditSettingsError';
  }
}

const DEFAULTS = { seal_delay_ms: 20, sweep_interval_seconds: 60 } as const;

function positiveInteger(raw: Readonly<Record<string, unknown>>, name: keyof typeof DEFAULTS, min: number): number {
  const value = raw[name] ?? DEFAULTS[name];
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min) throw new AuditSettingsError(`${name} must be an integer of at least ${min}`);
  return value;
}

/** Reads and checks the settings; a wrong value stops the boot with a message naming it. */
export function readSettings(raw: Readonly<Record<string, unknown>>): SealerOptions {
  for (const key of Object.keys(raw)) {
    if (!(key in DEFAULTS)) throw new AuditSettingsError(`unknown setting "${key}" (known: ${Object.keys(DEFAULTS).join(', ')})`);
  }
  return { delayMs: positiveInteger(raw, 'seal_delay_ms', 0), sweepMs: positiveInteger(raw, 'sweep_interval_seconds', 1) * 1000, batch: 1000 };
}
