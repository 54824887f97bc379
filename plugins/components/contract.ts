import { extensionPoint, type JsonSchema } from '../../kernel/plugin/api.js';

/**
 * What the components plugin offers other plugins: the extension point through which they
 * contribute component types (connectors, processors, sinks). A plugin in TypeScript may import
 * this file (types and the point's reference only); a plain JavaScript plugin contributes with
 * `{ point: { id: 'components.types' }, value: { ... } }`.
 */

export type ComponentKind = 'source' | 'processor' | 'sink';

/** A running instance of a component type, as its implementation makes it. */
export interface ComponentRuntime {
  /** Sources: begin producing; resolves once running. */
  start?(): Promise<void>;
  /** Stops and releases what it holds (connections, timers). */
  stop?(): Promise<void>;
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
  create?(config: Readonly<Record<string, unknown>>): ComponentRuntime | Promise<ComponentRuntime>;
}

export const componentTypes = extensionPoint<ComponentType>('components.types');
