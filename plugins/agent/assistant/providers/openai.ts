import { readEventStream } from './event-stream.js';
import { openStream } from './request.js';
import type { ChatMessage, ModelEvent, ModelProvider, ModelRequest, ProviderSettings, ToolCall } from './types.js';
import { ProviderError } from './types.js';

/** The history in Chat Completions form: tool calls carry their arguments as a JSON string. */
function toWire(system: string, messages: readonly ChatMessage[]): unknown[] {
  const wire: unknown[] = [{ role: 'system', content: system }];
  for (const message of messages) {
    if (message.role === 'assistant') {
      wire.push({
        role: 'assistant',
        content: message.content || null,
        ...(message.tool_calls?.length
          ? {
              tool_calls: message.tool_calls.map((c) => ({
                id: c.id,
                type: 'function',
                function: { name: c.name, arguments: JSON.stringify(c.arguments) },
              })),
            }
          : {}),
      });
    } else wire.push(message);
  }
  return wire;
}

function parseArguments(text: string, tool: string): Record<string, unknown> {
  if (text.trim() === '') return {};
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    // reported below
  }
  throw new ProviderError(`The model sent arguments for ${tool} that are not a JSON object.`);
}

interface Chunk {
  choices?: Array<{
    delta?: {
      content?: string | null;
      tool_calls?: Array<{ index: number; id?: string; function?: { name?: string; arguments?: string } }>;
    };
    finish_reason?: string | null;
  }>;
  usage?: { prompt_tokens?: number; completion_tokens?: number } | null;
}

/**
 * The OpenAI-compatible Chat Completions API (OpenAI, Azure OpenAI, Ollama, vLLM, llama.cpp's
 * server, LM Studio): `POST {base_url}/chat/completions` with `stream: true`. Tool calls arrive in
 * pieces keyed by index (id and name first, then the arguments' text in fragments) and are put
 * together before the engine sees them.
 */
export function openAiProvider(settings: ProviderSettings): ModelProvider {
  const url = `${settings.base_url.replace(/\/+$/, '')}/chat/completions`;
  const headers: Record<string, string> = settings.api_key ? { authorization: `Bearer ${settings.api_key}` } : {};
  return {
    async open(request: ModelRequest) {
      const body = await openStream(
        url,
        headers,
        {
          model: settings.model,
          stream: true,
          stream_options: { include_usage: true },
          max_tokens: request.max_tokens,
          messages: toWire(request.system, request.messages),
          ...(request.tools.length
            ? {
                tools: request.tools.map((t) => ({
                  type: 'function',
                  function: { name: t.name, description: t.description, parameters: t.input_schema },
                })),
              }
            : {}),
        },
        settings.timeout_ms,
        request.signal,
      );
      return (async function* (): AsyncIterable<ModelEvent> {
        const pending = new Map<number, { id: string; name: string; args: string }>();
        let reason = 'stop';
        for await (const { data } of readEventStream(body)) {
          if (data === '[DONE]') break;
          let chunk: Chunk;
          try {
            chunk = JSON.parse(data) as Chunk;
          } catch {
            throw new ProviderError('The model provider streamed a chunk that is not JSON.');
          }
          for (const choice of chunk.choices ?? []) {
            const delta = choice.delta ?? {};
            if (delta.content) yield { type: 'text', delta: delta.content };
            for (const part of delta.tool_calls ?? []) {
              const call = pending.get(part.index) ?? { id: '', name: '', args: '' };
              if (part.id) call.id = part.id;
              if (part.function?.name) call.name += part.function.name;
              if (part.function?.arguments) call.args += part.function.arguments;
              pending.set(part.index, call);
            }
            if (choice.finish_reason) reason = choice.finish_reason;
          }
          if (chunk.usage)
            yield {
              type: 'usage',
              input_tokens: chunk.usage.prompt_tokens ?? 0,
              output_tokens: chunk.usage.completion_tokens ?? 0,
            };
        }
        for (const [index, call] of [...pending].sort((a, b) => a[0] - b[0])) {
          const toolCall: ToolCall = {
            id: call.id || `call_${index}`,
            name: call.name,
            arguments: parseArguments(call.args, call.name),
          };
          yield { type: 'tool_call', call: toolCall };
        }
        yield { type: 'stop', reason };
      })();
    },
  };
}
