import { extensionPoint, type JsonSchema } from '../../kernel/plugin/api.js';

/**
 * What the components plugin offers other plugins: the extension point through which they
 * contribute component types (connectors, processors, sinks). A plugin in TypeScript may import
 * this file (types and the point's reference only); a plain JavaScript plugin contributes with
 * `{ point: { id: 'components.types' }, value: { ... } }`.
 */

export type ComponentKind = 'source' | 'processor' | 'sink';

/**
 * A message as it moves through the runtime: what a source emits (after it is durable in a
 * stream), what processors transform and what sinks deliver. Only JSON values and bytes.
 */
export interface RuntimeMessage {
  /** Id of the stream message it came from; external sinks carry it as their idempotency key. */
  id: string;
  key: string | null;
  headers: Readonly<Record<string, string>>;
  /** The decoded value when one is known (a JSON body, a codec's output, a script's push). */
  value?: unknown;
  /** The raw bytes when no value is known (or alongside it, as received). */
  body?: Uint8Array;
  content_type?: string;
}

export type RuntimeLogLevel = 'debug' | 'info' | 'warn' | 'error';

/** Where a component is running, and what it may call while it runs. */
export interface ComponentContext {
  tenantId: string;
  /** The component's id; absent for an inline step of a workflow. */
  componentId?: string;
  /** Writes to the `logs` domain with the component (and workflow, run) as fields. */
  log(level: RuntimeLogLevel, message: string, fields?: Readonly<Record<string, unknown>>): void;
  /** Aborted when the component is stopped or its lease is lost. */
  signal: AbortSignal;
}

/** What a source receives when it starts. */
export interface SourceContext extends ComponentContext {
  /**
   * Appends one received message to the component's stream and resolves once it is durable;
   * a source acknowledges to its broker only after this resolves. `dedup_id` (a broker's
   * message id) makes a redelivery append nothing new.
   */
  emit(message: { key?: string | null; headers?: Readonly<Record<string, string>>; body: Uint8Array; content_type?: string; dedup_id?: string }): Promise<void>;
  /** The source lost what it runs on (a broker went away): the component turns `failed` and is restarted with backoff. */
  fail(error: Error): void;
}

/** What a processor or sink receives for each message of a workflow run. */
export interface StepContext extends ComponentContext {
  workflowId: string;
  runId: string;
}

/** A running instance of a component type, as its implementation makes it. */
export interface ComponentRuntime {
  /** Sources: begin producing; resolves once running (connected, subscribed). */
  start?(context: SourceContext): Promise<void>;
  /** Stops and releases what it holds (connections, timers). */
  stop?(): Promise<void>;
  /** Processors: zero (filtered out), one or many messages onward. */
  process?(message: RuntimeMessage, context: StepContext): Promise<RuntimeMessage[]>;
  /** Sinks outside the database (HTTP, MQTT, AMQP, NATS): at-least-once, keyed by `message.id`. */
  deliver?(message: RuntimeMessage, context: StepContext): Promise<void>;
}

/** A kind of building block: a source, processor or sink with its own configuration schema. */
export interface ComponentType {
  /** Unique across plugins, dotted by convention (`mqtt.subscribe`). */
  name: string;
  kind: ComponentKind;
  summary?: string;
  /** JSON Schema of a component's `config`; fields with `"x-secret": true` are write-only secrets. */
  config_schema: JsonSchema;
  /** Makes a runtime instance from a validated configuration. */
  create?(config: Readonly<Record<string, unknown>>, where: { tenantId: string; componentId?: string }): ComponentRuntime | Promise<ComponentRuntime>;
}

export const componentTypes = extensionPoint<ComponentType>('components.types');
