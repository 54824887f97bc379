import { extensionPoint, type CombinedWrite, type JsonSchema } from '../../kernel/plugin/api.js';
import type { Knex } from 'knex';
import { Counter, Histogram, type Registry } from 'prom-client';

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
  /**
   * Into a processor: id of the stream message it came from. Into a sink: the output's own id,
   * unique to it and stable across retries of its run; sinks carry it as message id and
   * idempotency key.
   */
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
  emit(message: {
    key?: string | null;
    headers?: Readonly<Record<string, string>>;
    body: Uint8Array;
    content_type?: string;
    dedup_id?: string;
  }): Promise<void>;
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
  create?(
    config: Readonly<Record<string, unknown>>,
    where: { tenantId: string; componentId?: string },
  ): ComponentRuntime | Promise<ComponentRuntime>;
  /**
   * Checks a schema cannot express (a cron expression's syntax, say), after the schema passed:
   * each problem's `pointer` is relative to the config (`/cron`). A problem is a 400 at create.
   */
  validate?(config: Readonly<Record<string, unknown>>): Array<{ pointer: string; message: string }>;
  /** A source that receives through a route of its plugin (a webhook): the path, shown once on create. */
  endpoint?(where: { tenantId: string; componentId: string }): string;
}

export const componentTypes = extensionPoint<ComponentType>('components.types');

/** One message a source appends to its component's stream, as received. */
export interface SourceMessage {
  key?: string | null;
  headers?: Readonly<Record<string, string>>;
  body: Uint8Array;
  content_type?: string;
}

/**
 * How the components plugin appends a source's messages to streams without importing the
 * streams plugin: the streams plugin contributes one publisher (`plugins/streams/publisher.ts`).
 * Without it a source component cannot be created (it names a stream nobody keeps).
 */
export interface StreamPublisher {
  /** Whether the tenant has this stream. */
  exists(db: Knex | Knex.Transaction, tenantId: string, streamId: string): Promise<boolean>;
  /**
   * Appends one message in the caller's transaction (durable when it commits). With `dedupKey`,
   * a message already appended under that key appends nothing new and answers the first one.
   */
  append(
    db: Knex.Transaction,
    tenantId: string,
    streamId: string,
    message: SourceMessage,
    options?: { dedupKey?: string },
  ): Promise<{ id: string; partition: number; offset: number; duplicate: boolean }>;
  /** Appends several messages (no dedup keys) in the caller's transaction as one multi-row write, in order. */
  appendMany?(
    db: Knex.Transaction,
    tenantId: string,
    streamId: string,
    messages: readonly SourceMessage[],
  ): Promise<void>;
  /**
   * The same as parts of the caller's combined write (one statement, committed by the caller),
   * when the stream's storage allows it; false when it does not (appendMany in a transaction then).
   */
  appendManyIn?(
    write: CombinedWrite,
    db: Knex | Knex.Transaction,
    tenantId: string,
    streamId: string,
    messages: readonly SourceMessage[],
  ): Promise<boolean>;
}

export const componentPublisher = extensionPoint<StreamPublisher>('components.publisher', { single: true });

/** A component as other plugins may see it: its configuration with secrets decrypted. */
export interface ComponentRecord {
  tenantId: string;
  id: string;
  type: string;
  kind: ComponentKind | null;
  /** The stream a source appends to (`null` for processors and sinks). */
  stream: string | null;
  /** `running` when it should run and runs, `stopped`, or `failed`. */
  state: 'running' | 'stopped' | 'failed';
  /** Config with secrets in clear: never put it in a response. */
  config: Readonly<Record<string, unknown>>;
}

/**
 * What the components plugin lends to plugins that act on components outside a running source
 * (a webhook route receiving for its component; a workflow worker making a sink from a
 * component): read a component with its secrets, and append to a source's stream.
 */
export interface ComponentDirectory {
  find(db: Knex | Knex.Transaction, tenantId: string, id: string): Promise<ComponentRecord | undefined>;
  /**
   * Which of these components a user stopped (and has not started since). A workflow holds its
   * messages while one of its processors or sinks is among them: stop means stop.
   */
  stopped(db: Knex | Knex.Transaction, tenantId: string, ids: readonly string[]): Promise<string[]>;
  /**
   * What a workflow saw of a processor or sink component at run time: `failed` with the error
   * (a broker gone: the component_failed signal fires), `running` again once it works.
   */
  observe(
    db: Knex | Knex.Transaction,
    tenantId: string,
    id: string,
    state: 'running' | 'failed',
    error: string | null,
  ): Promise<void>;
  /** Appends to the source component's stream in the caller's transaction. */
  emit(
    db: Knex.Transaction,
    component: ComponentRecord,
    message: SourceMessage,
    options?: { dedupKey?: string },
  ): Promise<{ id: string; duplicate: boolean }>;
}

/**
 * Plugins that need the directory contribute a receiver here; the components plugin hands each
 * the directory when it starts (the other way round, a plugin would import the components plugin).
 */
export const componentDirectoryReceivers = extensionPoint<{ receive(directory: ComponentDirectory): void }>(
  'components.directory',
);

/** The stages of the data plane whose time `/metrics` shows (`runtime_stage_seconds`, `runtime_stage_messages_total`). */
export type DataPlaneStage = 'source_append' | 'claim' | 'sandbox' | 'sink' | 'commit';

/**
 * Records how long a stage took for a batch of `messages` (a histogram of the batch's seconds and
 * a counter of its messages: their ratio is the stage's time per message). The components and
 * workflows plugins share the metric in the kernel's registry; the first to ask makes it.
 */
export function stageTimings(registry: Registry): (stage: DataPlaneStage, seconds: number, messages: number) => void {
  const seconds =
    (registry.getSingleMetric('runtime_stage_seconds') as Histogram<'stage'> | undefined) ??
    new Histogram({
      name: 'runtime_stage_seconds',
      help: 'Time per batch of a data-plane stage: source_append, claim, sandbox, sink, commit.',
      labelNames: ['stage'],
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1, 5],
      registers: [registry],
    });
  const messages =
    (registry.getSingleMetric('runtime_stage_messages_total') as Counter<'stage'> | undefined) ??
    new Counter({
      name: 'runtime_stage_messages_total',
      help: 'Messages through a data-plane stage (with runtime_stage_seconds_sum: time per message).',
      labelNames: ['stage'],
      registers: [registry],
    });
  return (stage, s, n) => {
    seconds.observe({ stage }, s);
    messages.inc({ stage }, n);
  };
}
