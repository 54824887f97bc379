/**
 * Reads a `text/event-stream` response body into events. Both providers stream this way
 * (OpenAI: `data:` lines ending with `[DONE]`; Anthropic: named events), so one reader serves both.
 */
export interface StreamedEvent {
  event?: string;
  data: string;
}

export async function* readEventStream(body: ReadableStream<Uint8Array>): AsyncIterable<StreamedEvent> {
  const decoder = new TextDecoder();
  let buffer = '';
  let event: string | undefined;
  let data: string[] = [];
  const reader = body.getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let newline = buffer.search(/\r?\n/);
      while (newline >= 0) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(buffer[newline] === '\r' ? newline + 2 : newline + 1);
        if (line === '') {
          if (data.length > 0) yield { ...(event ? { event } : {}), data: data.join('\n') };
          event = undefined;
          data = [];
        } else if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
        else if (line.startsWith('event:')) event = line.slice(6).trim();
        newline = buffer.search(/\r?\n/);
      }
    }
    if (data.length > 0) yield { ...(event ? { event } : {}), data: data.join('\n') };
  } finally {
    reader.releaseLock();
  }
}
