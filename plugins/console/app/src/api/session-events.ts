/**
 * What the API client tells the app shell about the session, without importing React: the shell
 * subscribes and routes to sign-in (401) or shows the outage banner (503).
 */
export type SessionEvent = { kind: 'expired' } | { kind: 'unavailable'; retrying: boolean } | { kind: 'available' };

type Listener = (event: SessionEvent) => void;
const listeners = new Set<Listener>();

export function onSessionEvent(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function emitSessionEvent(event: SessionEvent): void {
  for (const listener of listeners) listener(event);
}
