import { useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { CollabSession, type CollabStatus } from './collab';

/* The shared document's state as React sees it: the session, its status, its paths, the other editors. */

/** The shared document of the workspace, for as long as the page is open. */
export function useCollab(workspaceId: string, name: string | undefined) {
  const [session, setSession] = useState<CollabSession | null>(null);
  useEffect(() => {
    if (!name) return;
    const created = new CollabSession(workspaceId, { name });
    setSession(created);
    return () => created.destroy();
  }, [workspaceId, name]);
  return session;
}

export function useStatus(session: CollabSession | null): CollabStatus | undefined {
  const [status, setStatus] = useState<CollabStatus>();
  useEffect(() => session?.onStatus(setStatus), [session]);
  return status;
}

/** The document's paths, re-read whenever a file is added or removed (by anyone). */
export function usePaths(session: CollabSession | null): string[] {
  const subscribe = useMemo(
    () => (notify: () => void) => {
      if (!session) return () => undefined;
      session.files.observe(notify);
      return () => session.files.unobserve(notify);
    },
    [session],
  );
  const snapshot = useMemo(() => {
    let cache: { key: string; paths: string[] } = { key: '', paths: [] };
    return () => {
      const paths = session ? [...session.files.keys()].sort() : [];
      const key = paths.join('\n');
      if (key !== cache.key) cache = { key, paths };
      return cache.paths;
    };
  }, [session]);
  return useSyncExternalStore(subscribe, snapshot);
}

/** The other editors, re-read on every awareness change. */
export function usePeers(session: CollabSession | null) {
  const [peers, setPeers] = useState<ReturnType<CollabSession['peers']>>([]);
  useEffect(() => {
    if (!session) return;
    const update = () => setPeers(session.peers());
    session.awareness.on('change', update);
    update();
    return () => session.awareness.off('change', update);
  }, [session]);
  return peers;
}

export function statusText(status: CollabStatus | undefined): string {
  if (!status) return 'Connecting…';
  if (status.connection === 'closed') return status.closed ?? 'Disconnected; reconnecting…';
  if (status.connection === 'connecting') return 'Connecting…';
  const saved = status.saved
    ? ` Saved as revision ${status.saved.revision}${status.saved.unchanged ? ' (no change)' : ''}.`
    : '';
  return `${status.synced ? 'Connected and in sync.' : 'Connected, syncing…'}${saved}`;
}
