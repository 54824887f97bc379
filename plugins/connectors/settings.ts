/** `settings.connectors` (manifests/connectors.json has the schema and defaults). */
export interface ConnectorsSettings {
  http: {
    /** Address ranges http.request may reach although they are not public: `loopback`, `private`, `link-local`. */
    allow: Array<'loopback' | 'private' | 'link-local'>;
    default_timeout_ms: number;
    max_timeout_ms: number;
    max_response_bytes: number;
  };
  /** How long a broker connection may take before a source start or a sink delivery fails. */
  connect_timeout_ms: number;
}
