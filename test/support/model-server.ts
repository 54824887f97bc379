import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A scripted model provider on loopback, speaking each provider's real streaming wire format:
 * OpenAI's Chat Completions (`POST /v1/chat/completions`, `data:` chunks, tool calls in indexed
 * fragments, `[DONE]`) and Anthropic's Messages API (`POST /v1/messages`, named events, tool
 * input as `input_json_delta` fragments). Each request takes the next scripted reply; the tests
 * read back what the runtime sent (the tools it offered, the history with tool results).
 */
export interface ScriptedReply {
  text?: string;
  tool_calls?: Array<{ name: string; arguments: Record<string, unknown> }>;
  /** Answer with this HTTP status and an error body instead. */
  status?: number;
  /** Accept the request and never answer (a hung provider). */
  hang?: boolean;
}

export type Script = ScriptedReply | ((request: Record<string, any>) => ScriptedReply);

export interface ModelServer {
  url: string;
  /** Every request body received, in order. */
  requests: Array<Record<string, any>>;
  /** The headers of each request (the API key among them). */
  headers: IncomingMessage['headers'][];
  /** Replies still to give. */
  script: Script[];
  close(): Promise<void>;
}

/** Splits a string into a few pieces, the way providers stream text and JSON. */
function pieces(text: string, size = 7): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

function sse(res: ServerResponse, data: unknown, event?: string): void {
  res.write(`${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`);
}

function openAiStream(res: ServerResponse, reply: ScriptedReply, n: number): void {
  const base = { id: `chatcmpl-${n}`, object: 'chat.completion.chunk', created: 1, model: 'scripted' };
  sse(res, { ...base, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] });
  for (const piece of pieces(reply.text ?? ''))
    sse(res, { ...base, choices: [{ index: 0, delta: { content: piece }, finish_reason: null }] });
  (reply.tool_calls ?? []).forEach((call, index) => {
    sse(res, {
      ...base,
      choices: [
        {
          index: 0,
          delta: {
            tool_calls: [
              { index, id: `call_${n}_${index}`, type: 'function', function: { name: call.name, arguments: '' } },
            ],
          },
          finish_reason: null,
        },
      ],
    });
    for (const piece of pieces(JSON.stringify(call.arguments)))
      sse(res, {
        ...base,
        choices: [
          { index: 0, delta: { tool_calls: [{ index, function: { arguments: piece } }] }, finish_reason: null },
        ],
      });
  });
  sse(res, {
    ...base,
    choices: [{ index: 0, delta: {}, finish_reason: reply.tool_calls?.length ? 'tool_calls' : 'stop' }],
  });
  sse(res, { ...base, choices: [], usage: { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 } });
  sse(res, '[DONE]');
  res.end();
}

function anthropicStream(res: ServerResponse, reply: ScriptedReply, n: number): void {
  sse(
    res,
    {
      type: 'message_start',
      message: {
        id: `msg_${n}`,
        type: 'message',
        role: 'assistant',
        model: 'scripted',
        content: [],
        usage: { input_tokens: 100, output_tokens: 1 },
      },
    },
    'message_start',
  );
  let index = 0;
  if (reply.text) {
    sse(res, { type: 'content_block_start', index, content_block: { type: 'text', text: '' } }, 'content_block_start');
    sse(res, { type: 'ping' }, 'ping');
    for (const piece of pieces(reply.text))
      sse(
        res,
        { type: 'content_block_delta', index, delta: { type: 'text_delta', text: piece } },
        'content_block_delta',
      );
    sse(res, { type: 'content_block_stop', index }, 'content_block_stop');
    index++;
  }
  for (const call of reply.tool_calls ?? []) {
    sse(
      res,
      {
        type: 'content_block_start',
        index,
        content_block: { type: 'tool_use', id: `toolu_${n}_${index}`, name: call.name, input: {} },
      },
      'content_block_start',
    );
    for (const piece of pieces(JSON.stringify(call.arguments)))
      sse(
        res,
        { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: piece } },
        'content_block_delta',
      );
    sse(res, { type: 'content_block_stop', index }, 'content_block_stop');
    index++;
  }
  sse(
    res,
    {
      type: 'message_delta',
      delta: { stop_reason: reply.tool_calls?.length ? 'tool_use' : 'end_turn' },
      usage: { output_tokens: 20 },
    },
    'message_delta',
  );
  sse(res, { type: 'message_stop' }, 'message_stop');
  res.end();
}

export async function startModelServer(provider: 'openai' | 'anthropic', script: Script[] = []): Promise<ModelServer> {
  const requests: Array<Record<string, any>> = [];
  const headers: IncomingMessage['headers'][] = [];
  const hung = new Set<ServerResponse>();
  const expected = provider === 'openai' ? '/v1/chat/completions' : '/v1/messages';
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== expected) {
        res.writeHead(404).end();
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, any>;
      requests.push(body);
      headers.push(req.headers);
      const next = state.script.shift();
      const reply = typeof next === 'function' ? next(body) : (next ?? { text: 'No more script.' });
      if (reply.hang) {
        hung.add(res);
        return;
      }
      if (reply.status) {
        res.writeHead(reply.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: 'scripted failure' } }));
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      if (provider === 'openai') openAiStream(res, reply, requests.length);
      else anthropicStream(res, reply, requests.length);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const state: ModelServer = {
    url: provider === 'openai' ? `http://127.0.0.1:${port}/v1` : `http://127.0.0.1:${port}`,
    requests,
    headers,
    script,
    async close() {
      for (const res of hung) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return state;
}

/** Reads a text/event-stream answer into its events (data parsed as JSON). */
export function parseEvents(text: string): Array<{ event: string; data: any }> {
  const events: Array<{ event: string; data: any }> = [];
  for (const block of text.split('\n\n')) {
    let event = 'message';
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith('event:')) event = line.slice(6).trim();
      else if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
    }
    if (data.length) events.push({ event, data: JSON.parse(data.join('\n')) });
  }
  return events;
}
