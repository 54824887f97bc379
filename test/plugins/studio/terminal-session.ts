import type { WebSocket } from 'ws';
import type { TestKernel } from '../../support/kernel.js';
import { closed, inbox, mustOpen } from '../../support/realtime.js';
import { studioTicket } from './yjs-client.js';

/** A studio terminal session on `workspace` as `token`: its ready message, then a line sent and its JSON answer read. */
export async function terminal(tk: TestKernel, token: string, workspace: string) {
  const socket: WebSocket = await mustOpen(
    tk,
    `/studio/terminal/ws?ticket=${await studioTicket(tk, token, workspace, 'terminal')}`,
  );
  const messages = inbox(socket);
  const ready = JSON.parse((await messages.next()).data.toString());
  return {
    ready,
    async line(text: string): Promise<any> {
      socket.send(text);
      return JSON.parse((await messages.next()).data.toString());
    },
    async close() {
      socket.close();
      await closed(socket);
    },
  };
}
