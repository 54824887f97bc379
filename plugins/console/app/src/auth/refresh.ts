import { browserAuth } from './browser-api';

/**
 * Silent refresh. The access cookie lives 15 minutes; the app renews it a minute before it
 * expires, and once more when a call answers 401 (a laptop woke from sleep). Concurrent callers
 * share one refresh request, since the server rotates the refresh cookie on each use.
 */
const LEAD_MS = 60_000;
let inflight: Promise<boolean> | null = null;
let timer: ReturnType<typeof setTimeout> | undefined;

export function refreshSession(): Promise<boolean> {
  inflight ??= browserAuth
    .refresh()
    .then((answer) => {
      scheduleRefresh(answer.expires_at);
      return true;
    })
    .catch(() => false)
    .finally(() => {
      inflight = null;
    });
  return inflight;
}

/** Plans the next silent refresh for a session that expires at `expiresAt` (ISO time). */
export function scheduleRefresh(expiresAt: string | undefined | null): void {
  if (timer) clearTimeout(timer);
  timer = undefined;
  if (!expiresAt) return;
  const wait = Math.max(5_000, Date.parse(expiresAt) - Date.now() - LEAD_MS);
  timer = setTimeout(() => void refreshSession(), Math.min(wait, 2 ** 31 - 1));
}

export function stopRefreshing(): void {
  if (timer) clearTimeout(timer);
  timer = undefined;
}
