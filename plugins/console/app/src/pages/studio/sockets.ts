import { callOperation } from '../../api/call';

export type Channel = 'collab' | 'terminal';

const PATHS: Record<Channel, string> = { collab: '/studio/collab/ws', terminal: '/studio/terminal/ws' };

/**
 * Opens one of the studio's sockets. A browser cannot put a credential on a WebSocket, so the
 * console first mints a one-time ticket over the cookie-authenticated API (30 s, one use, bound
 * to this workspace and channel) and opens the socket with it.
 */
export async function openStudioSocket(workspaceId: string, channel: Channel): Promise<WebSocket> {
  const { ticket } = await callOperation<{ ticket: string }>({
    op: 'mintStudioTicket',
    body: { workspace_id: workspaceId, channel },
  });
  const url = new URL(PATHS[channel], window.location.href);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  url.searchParams.set('ticket', ticket);
  url.searchParams.set('workspace_id', workspaceId);
  const socket = new WebSocket(url);
  socket.binaryType = 'arraybuffer';
  return socket;
}

/** What a close code of the studio's sockets means to the user. */
export function closeReason(code: number): string {
  if (code === 4401) return 'The session that opened this connection ended; sign in again.';
  if (code === 4404) return 'The workspace was deleted.';
  if (code === 1009) return 'Too many unsaved edits; the connection was closed.';
  if (code === 1001) return 'The server is restarting.';
  return `The connection closed (${code}).`;
}
