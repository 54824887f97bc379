import type { Settings } from '../generated/manifest-types.js';
import type { ProviderSettings } from './providers/types.js';

/** The in-product agent's settings (`settings.agent`, beside the MCP ones), as the engine uses them. */
export interface AssistantSettings {
  /** Undefined when no provider is configured: every assistant route then answers 501. */
  provider: ProviderSettings | undefined;
  max_tool_calls_per_turn: number;
  max_tokens_per_turn: number;
  turn_timeout_ms: number;
  rate_limit_per_minute: number;
  retention_days: number;
  /** Permissions whose writes run without asking (never any by default). */
  auto_approve: readonly string[];
}

/** From the validated `settings.agent` (the manifest's schema filled in the defaults). */
export function assistantSettings(raw: Readonly<Settings>): AssistantSettings {
  const { provider, model } = raw;
  const defaults = { openai: 'https://api.openai.com/v1', anthropic: 'https://api.anthropic.com' } as const;
  return {
    provider:
      provider && model
        ? {
            provider,
            model,
            base_url: raw.base_url ?? defaults[provider],
            ...(raw.api_key ? { api_key: raw.api_key } : {}),
            timeout_ms: raw.provider_timeout_ms,
          }
        : undefined,
    max_tool_calls_per_turn: raw.max_tool_calls_per_turn,
    max_tokens_per_turn: raw.max_tokens_per_turn,
    turn_timeout_ms: raw.turn_timeout_ms,
    rate_limit_per_minute: raw.rate_limit_per_minute,
    retention_days: raw.conversation_retention_days,
    auto_approve: raw.auto_approve_permissions,
  };
}
