import { ProviderError } from './types.js';

/**
 * POSTs a streaming request to a provider and waits at most `timeoutMs` for its answer to begin;
 * the caller's signal (the turn's deadline, the client going away) aborts it at any time. A non-2xx
 * answer is a ProviderError carrying the provider's status and the start of its message.
 */
export async function openStream(
  url: string,
  headers: Record<string, string>,
  body: unknown,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<ReadableStream<Uint8Array>> {
  // The timeout bounds the wait for the answer to begin only; the stream itself then lasts as
  // long as the caller's signal allows (fetch's signal also governs reading the body).
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  const onAbort = (): void => controller.abort();
  signal.addEventListener('abort', onAbort, { once: true });
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...headers },
      body: JSON.stringify(body),
      signal: controller.signal,
    });
  } catch (err) {
    signal.removeEventListener('abort', onAbort);
    const reason = signal.aborted
      ? 'the turn ended'
      : controller.signal.aborted
        ? `no answer within ${timeoutMs} ms`
        : String(err);
    throw new ProviderError(`The model provider could not be reached: ${reason}.`);
  } finally {
    clearTimeout(timer);
  }
  if (!response.ok || !response.body) {
    const text = (await response.text().catch(() => '')).slice(0, 300);
    throw new ProviderError(`The model provider answered ${response.status}: ${text}`, response.status);
  }
  return response.body;
}
