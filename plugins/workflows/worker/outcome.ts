import type { RuntimeMessage } from '../../components/contract.js';
import type { WorkflowInputMessage, WorkflowOutputMessage } from '../contract.js';

/** The header each output carries: the input message it came from. */
export const SOURCE_HEADER = 'x-workflow-source';

/** What processing one message came to. */
export interface Outcome {
  message: WorkflowInputMessage;
  runId: string;
  startedAt: number;
  outputs?: RuntimeMessage[];
  error?: string;
  /** The component whose step or sink failed, when it was one. */
  componentId?: string;
}

/** A stream message as processors see it: JSON bodies parsed into `value`, the bytes kept either way. */
export function toRuntime(m: WorkflowInputMessage): RuntimeMessage {
  const message: RuntimeMessage = {
    id: m.id,
    key: m.key,
    headers: m.headers,
    body: m.body,
    content_type: m.contentType,
  };
  if (m.contentType === 'application/json') {
    try {
      message.value = JSON.parse(m.body.toString('utf8')) as unknown;
    } catch {
      // Not JSON after all: processors see the bytes.
    }
  }
  return message;
}

/** An output as a stream sink writes it: the value (or bytes), the key, and the input it came from. */
export function toOutput(m: RuntimeMessage, key: string | undefined, source: string): WorkflowOutputMessage {
  const out: WorkflowOutputMessage = { key: key ?? m.key, headers: { ...m.headers, [SOURCE_HEADER]: source } };
  if (m.value !== undefined) out.value = m.value;
  else {
    out.body = m.body ?? new Uint8Array();
    if (m.content_type !== undefined) out.contentType = m.content_type;
  }
  return out;
}

/** A run that went through: `filtered` when it pushed nothing onward (no output to any sink), else `processed`. */
export const succeeded = (outputs: readonly RuntimeMessage[] | undefined): 'processed' | 'filtered' =>
  outputs && outputs.length > 0 ? 'processed' : 'filtered';

/** An error as a run records it: its message, bounded (a run row is not a place for megabytes). */
export const errorText = (err: unknown): string => (err instanceof Error ? err.message : String(err)).slice(0, 4000);
