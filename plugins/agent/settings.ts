import type { Settings } from './generated/manifest-types.js';

/** The agent plugin's MCP settings (`settings.agent`; the manifest's schema checked and filled them in). */
export interface AgentSettings {
  /** Expose and allow only read-only tools over MCP and to the in-product agent, whatever the caller's credential may do. */
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
    throw new AgentSettingsError(
      `allowed_origins entry "${value}" is not an origin such as https://console.example.com`,
    );
  }
  if (url.origin === 'null' || url.pathname !== '/' || url.search || url.hash) {
    throw new AgentSettingsError(`allowed_origins entry "${value}" must be scheme://host[:port] only`);
  }
  return url.origin;
}

/** Reads the MCP settings; types and unknown keys were checked against the manifest's schema at boot. */
export function readSettings(raw: Readonly<Settings>): AgentSettings {
  return { readOnly: raw.read_only, allowedOrigins: raw.allowed_origins.map(normalizeOrigin) };
}
