import { readEventStream } from './event-stream.js';
import { openStream } from './request.js';
import type { ChatMessage, ModelEvent, ModelProvider, ModelRequest, ProviderSettings } from './types.js';
import { ProviderError } from './types.js';

type Block =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> }
  | { type: 'tool_result'; tool_use_id: string; content: string };

/**
 * The history in Messages API form: tool calls are `tool_use` blocks of the assistant, tool
 * results `tool_result` blocks of the next user message (consecutive results share one).
 */
function toWire(messages: readonly ChatMessage[]): Array<{ role: 'user' | 'assistant'; content: Block[] }> {
  const wire: Array<{ role: 'user' | 'assistant'; content: Block[] }> = [];
  const push = (role: 'user' | 'assistant', block: Block): void => {
    const last = wire.at(-1);
    if (last && last.role === role) last.content.push(block);
    else wire.push({ role, content: [block] });
  };
  for (const message of messages) {
    if (message.role === 'user') push('user', { type: 'text', text: message.content });
    else if (message.role === 'tool')
      push('user', { type: 'tool_result', tool_use_id: message.tool_call_id, content: message.content });
    else {
      if (message.content) push('assistant', { type: 'text', text: message.content });
      for (const c of message.tool_calls ?? [])
        push('assistant', { type: 'tool_use', id: c.id, name: c.name, input: c.arguments });
      if (!message.content && !message.tool_calls?.length) push('assistant', { type: 'text', text: '…' });
    }
  }
  return wire;
}

interface StreamPayload {
  type?: string;
  index?: number;
  message?: { usage?: { input_tokens?: number; output_tokens?: number } };
  content_block?: { type?: string; id?: string; name?: string };
  delta?: { type?: string; text?: string; partial_json?: string; stop_reason?: string };
  usage?: { input_tokens?: number; output_tokens?: number };
  error?: { type?: string; message?: string };
}

/**
 * The Anthropic Messages API: `POST {base_url}/v1/messages` with `stream: true`. Text and tool
 * calls come as content blocks; a tool call's input arrives as fragments of JSON
 * (`input_json_delta`) that are joined when its block stops.
 */
export function anthropicProvider(settings: ProviderSettings): ModelProvider {
  const url = `${settings.base_url.replace(/\/+$/, '')}/v1/messages`;
  const headers: Record<string, string> = {
    'anthropic-version': '2023-06-01',
    ...(settings.api_key ? { 'x-api-key': settings.api_key } : {}),
  };
  return {
    async open(request: ModelRequest) {
      const body = await openStream(
        url,
        headers,
        {
          model: settings.model,
          stream: true,
          max_tokens: request.max_tokens,
          system: request.system,
          messages: toWire(request.messages),
          ...(request.tools.length
            ? {
                tools: request.tools.map((t) => ({
                  name: t.name,
                  description: t.description,
                  input_schema: t.input_schema,
                })),
              }
            : {}),
        },
        settings.timeout_ms,
        request.signal,
      );
      return (async function* (): AsyncIterable<ModelEvent> {
        const blocks = new Map<number, { id: string; name: string; json: string }>();
        let inputTokens = 0;
        let outputTokens = 0;
        let reason = 'end_turn';
        for await (const { data } of readEventStream(body)) {
          let payload: StreamPayload;
          try {
            payload = JSON.parse(data) as StreamPayload;
          } catch {
            throw new ProviderError('The model provider streamed an event that is not JSON.');
          }
          switch (payload.type) {
            case 'message_start':
              inputTokens = payload.message?.usage?.input_tokens ?? 0;
              outputTokens = payload.message?.usage?.output_tokens ?? 0;
              break;
            case 'content_block_start':
              if (payload.content_block?.type === 'tool_use')
                blocks.set(payload.index ?? 0, {
                  id: payload.content_block.id ?? `toolu_${payload.index ?? 0}`,
                  name: payload.content_block.name ?? '',
                  json: '',
                });
              break;
            case 'content_block_delta':
              if (payload.delta?.type === 'text_delta' && payload.delta.text)
                yield { type: 'text', delta: payload.delta.text };
              else if (payload.delta?.type === 'input_json_delta') {
                const block = blocks.get(payload.index ?? 0);
                if (block) block.json += payload.delta.partial_json ?? '';
              }
              break;
            case 'content_block_stop': {
              const block = blocks.get(payload.index ?? 0);
              if (block) {
                blocks.delete(payload.index ?? 0);
                let input: unknown = {};
                try {
                  input = block.json.trim() ? JSON.parse(block.json) : {};
                } catch {
                  throw new ProviderError(`The model sent arguments for ${block.name} that are not JSON.`);
                }
                if (!input || typeof input !== 'object' || Array.isArray(input))
                  throw new ProviderError(`The model sent arguments for ${block.name} that are not a JSON object.`);
                yield {
                  type: 'tool_call',
                  call: { id: block.id, name: block.name, arguments: input as Record<string, unknown> },
                };
              }
              break;
            }
            case 'message_delta':
              if (payload.delta?.stop_reason) reason = payload.delta.stop_reason;
              if (payload.usage?.output_tokens !== undefined) outputTokens = payload.usage.output_tokens;
              break;
            case 'error':
              throw new ProviderError(`The model provider reported an error: ${payload.error?.message ?? 'unknown'}`);
            default:
              break;
          }
        }
        yield { type: 'usage', input_tokens: inputTokens, output_tokens: outputTokens };
        yield { type: 'stop', reason };
      })();
    },
  };
}
