/**
 * The model side of a conversation, whatever the provider's wire format: the turn engine speaks
 * only these shapes, and each adapter (openai.ts, anthropic.ts) translates them to and from its API.
 */

/** One entry of a conversation's history as the engine keeps it. */
export type ChatMessage =
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string; tool_calls?: ToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };

export interface ToolCall {
  id: string;
  name: string;
  /** The arguments as the model sent them (parsed JSON; `{}` when it sent none). */
  arguments: Record<string, unknown>;
}

/** A tool as offered to the model: a name, what it does, and its JSON Schema input. */
export interface ToolOffer {
  name: string;
  description: string;
  input_schema: Record<string, unknown>;
}

export interface ModelRequest {
  system: string;
  messages: readonly ChatMessage[];
  tools: readonly ToolOffer[];
  max_tokens: number;
  signal: AbortSignal;
}

/** What a provider streams back for one request. */
export type ModelEvent =
  | { type: 'text'; delta: string }
  | { type: 'tool_call'; call: ToolCall }
  | { type: 'usage'; input_tokens: number; output_tokens: number }
  | { type: 'stop'; reason: string };

/** A provider that answered with an error status, or could not be reached in time. */
export class ProviderError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}

/**
 * One model request. `open` resolves once the provider has answered with a success status (so a
 * refused or unreachable provider is known before the client's stream starts); `events` then
 * yields what it streams.
 */
export interface ModelProvider {
  open(request: ModelRequest): Promise<AsyncIterable<ModelEvent>>;
}

export interface ProviderSettings {
  provider: 'openai' | 'anthropic';
  base_url: string;
  model: string;
  api_key?: string;
  /** How long to wait for the provider's response to begin. */
  timeout_ms: number;
}
