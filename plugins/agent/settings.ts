/** The agent plugin's settings (`settings.agent` in the config profile). */
export interface AgentSettings {
  /** Expose and allow only read-only tools over MCP, whatever the caller's credential may do. */
  readOnly: boolean;
  /**
   * Browser origins allowed to talk to the MCP endpoint besides loopback ones (exact
   * `scheme://host[:port]`, or `*` for any). Requests without an Origin header (non-browser
   * clients) are always allowed; the credential still decides what they may do.
   */
  allowedOrigins: readonly string[];
}

export class AgentSettingsError extends Error {
  constructor(problem: string) {
    super(`settings.agent: ${problem}`);
    this.name = 'AgentSettingsError';
  }
}

function normalizeOrigin(value: string): string {
  if (value === '*') return value;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new AgentSettingsError(`allowed_origins entry "${value}" is not an origin such as https://console.example.com`);
  }
  if (url.origin === 'null' || url.pathname !== '/' || url.search || url.hash) {
    throw new AgentSettingsError(`allowed_origins entry "${value}" must be scheme://host[:port] only`);
  }
  return url.origin;
}

/** Reads and checks the settings; a wrong value stops the boot with a message naming it. */
export function readSettings(raw: Readonly<Record<string, unknown>>): AgentSettings {
  const known = new Set(['read_only', 'allowed_origins']);
  for (const key of Object.keys(raw)) if (!known.has(key)) throw new AgentSettingsError(`unknown setting "${key}" (known: read_only, allowed_origins)`);
  const readOnly = raw.read_only ?? false;
  if (typeof readOnly !== 'boolean') throw new AgentSettingsError('read_only must be true or false');
  const origins = raw.allowed_origins ?? [];
  if (!Array.isArray(origins) || origins.some((o) => typeof o !== 'string')) throw new AgentSettingsError('allowed_origins must be an array of origins');
  return { readOnly, allowedOrigins: (origins as string[]).map(normalizeOrigin) };
}
