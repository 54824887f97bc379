import '@xterm/xterm/css/xterm.css';
import { Terminal } from '@xterm/xterm';
import { useEffect, useRef, useState } from 'react';
import { closeReason, openStudioSocket } from './sockets';

interface Answer {
  line: string;
  ok: boolean;
  output?: string;
  result?: unknown;
  error?: { message?: string } | string;
}

const PROMPT = '\x1b[1;34m›\x1b[0m ';

/** The text an answer prints: its output, its result as JSON, or its error. */
export function answerText(answer: Answer): string {
  const parts: string[] = [];
  if (answer.output) parts.push(answer.output);
  if (answer.result !== undefined) parts.push(JSON.stringify(answer.result, null, 2));
  if (!answer.ok && answer.error)
    parts.push(
      `error: ${typeof answer.error === 'string' ? answer.error : (answer.error.message ?? JSON.stringify(answer.error))}`,
    );
  return parts.join('\n');
}

/**
 * The studio's terminal (xterm.js) over the terminal socket: a line REPL into the workspace's
 * sandbox (ls, cat, run, test, help, JavaScript expressions), never a shell. The terminal edits
 * the line locally and sends it on Enter; each answer is one JSON message. A transcript of the
 * answers is also kept in a live region for screen readers. Loaded as its own chunk.
 */
export default function TerminalPanel({ workspaceId }: { workspaceId: string }) {
  const host = useRef<HTMLDivElement>(null);
  const [transcript, setTranscript] = useState<string[]>([]);
  const [state, setState] = useState('Connecting…');

  useEffect(() => {
    if (!host.current) return;
    const term = new Terminal({ convertEol: true, cursorBlink: true, rows: 14, screenReaderMode: false, fontSize: 13 });
    term.open(host.current);
    // Tab and Escape leave the terminal (the line REPL has no use for them): no keyboard trap.
    term.attachCustomKeyEventHandler((event) => event.key !== 'Tab' && event.key !== 'Escape');
    let socket: WebSocket | null = null;
    let line = '';
    let closed = false;
    const history: string[] = [];
    let back = 0;
    term.writeln('Workspace terminal: type help, then Enter.');
    openStudioSocket(workspaceId, 'terminal')
      .then((ws) => {
        if (closed) return ws.close(1000);
        socket = ws;
        ws.onopen = () => {
          setState('Connected');
          term.write(PROMPT);
        };
        ws.onmessage = (event) => {
          const answer = JSON.parse(String(event.data)) as Answer;
          const text = answerText(answer);
          if (text) term.writeln(answer.ok ? text : `\x1b[31m${text}\x1b[0m`);
          term.write(PROMPT);
          setTranscript((t) => [...t.slice(-49), `› ${answer.line}\n${text}`]);
        };
        ws.onclose = (event) => {
          if (!closed) setState(closeReason(event.code));
        };
      })
      .catch((err: Error) => setState(`Not connected: ${err.message}`));
    const replace = (next: string) => {
      term.write(`\r\x1b[2K${PROMPT}${next}`);
      line = next;
    };
    const input = term.onData((data) => {
      if (data === '\r') {
        term.write('\r\n');
        if (line.trim()) history.push(line);
        back = 0;
        if (socket?.readyState === WebSocket.OPEN) socket.send(line);
        else term.write(PROMPT);
        line = '';
      } else if (data === '\x7f') {
        if (line.length > 0) {
          line = line.slice(0, -1);
          term.write('\b \b');
        }
      } else if (data === '\x1b[A') {
        if (back < history.length) replace(history[history.length - ++back] ?? '');
      } else if (data === '\x1b[B') {
        back = Math.max(0, back - 1);
        replace(back === 0 ? '' : (history[history.length - back] ?? ''));
      } else if (data >= ' ' && !data.startsWith('\x1b')) {
        line += data;
        term.write(data);
      }
    });
    return () => {
      closed = true;
      input.dispose();
      socket?.close(1000);
      term.dispose();
    };
  }, [workspaceId]);

  return (
    <section aria-labelledby="terminal-title" className="studio-terminal">
      <h2 id="terminal-title">Terminal</h2>
      <p className="muted" role="status">
        {state}
      </p>
      <div ref={host} className="terminal-host" />
      <div role="log" aria-label="Terminal answers" className="visually-hidden">
        {transcript.map((entry, n) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the transcript only grows at its end
          <p key={n}>{entry}</p>
        ))}
      </div>
    </section>
  );
}
