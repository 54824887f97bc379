/** The validated configuration (config/config.schema.json is the authority). */
export type Profile = 'local' | 'production' | 'test';

export type PluginRef = string | { module: string; settings?: Record<string, unknown> };

export interface KernelConfig {
  profile: Profile;
  http: {
    host: string;
    port: number;
    body_limit_bytes: number;
    binary_limit_bytes: number;
    shutdown_grace_ms: number;
    trust_proxy: boolean;
    websocket: {
      allowed_origins: string[];
      allow_loopback_origins: boolean;
      max_payload_bytes: number;
      max_sockets_per_subject: number;
      ping_interval_ms: number;
      revalidate_interval_ms: number;
    };
    sse: { heartbeat_ms: number };
  };
  database: { url?: string; data_dir?: string; schema?: string; pool_max: number; ready_timeout_ms: number };
  plugins: PluginRef[];
  settings: Record<string, Record<string, unknown>>;
  auth: { mode: 'required' | 'none' };
  /** Idempotency-key retention; defaults filled in by the config schema. */
  idempotency?: { retention_hours?: number; purge_interval_seconds?: number };
  /** Rate of account-trail records (calls nobody authenticated), per instance. */
  account_trail: { per_second: number; burst: number };
  /** Background jobs and their leases; defaults filled in by the config schema. */
  jobs?: { lease_ms?: number; stop_timeout_ms?: number };
  /** The events service; defaults filled in by the config schema. */
  events?: { poll_ms?: number; retention_seconds?: number };
  /** The sandbox's limits and pool; defaults filled in by the config schema. */
  sandbox?: {
    deadline_ms?: number;
    backstop_margin_ms?: number;
    memory_bytes?: number;
    stack_bytes?: number;
    output_bytes?: number;
    pushes?: number;
    pool_size?: number;
  };
  log: { level: string };
  build: { version: string; commit: string };
}
