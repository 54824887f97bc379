import { loadedBpmnLibraries } from './libraries.js';
import { modelExpressions } from './expressions.js';

/* What every instance's engine shares: bpmn-engine's logger and expressions made once, and the variable helpers. */

/**
 * The engine's own logger (the `debug` package), made once per scope: the engine and each of its
 * elements ask for one, and creating `debug` loggers anew for every instance cost more than the
 * definitions' few elements took to run. DEBUG=bpmn-engine:* still turns them on.
 */
let engineLogger: ((scope: string) => unknown) | undefined;
const loggers = new Map<string, unknown>();
export function sharedLogger(scope: string): unknown {
  let logger = loggers.get(scope);
  // Made from the first engine's options: the library is loaded on first use, not at boot.
  engineLogger ??= (
    new (loadedBpmnLibraries().Engine)({ name: 'logger' }) as unknown as {
      options: { Logger: (scope: string) => unknown };
    }
  ).options.Logger;
  if (!logger) loggers.set(scope, (logger = engineLogger(scope)));
  return logger;
}

/** bpmn-engine's own expressions, under the modelers' FEEL and JUEL (expressions.ts); made once. */
let expressions: unknown;
export function sharedExpressions(): unknown {
  expressions ??= modelExpressions(
    (
      new (loadedBpmnLibraries().Engine)({ name: 'expressions' }) as unknown as {
        environment: { expressions: Parameters<typeof modelExpressions>[0] };
      }
    ).environment.expressions,
  );
  return expressions;
}

export const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
export const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value ?? {})) as T;
/** bpmn-elements puts the process's run message (fields, content, properties) among its variables; they are not the instance's. */
const ENGINE_KEYS = new Set(['fields', 'content', 'properties']);
export const userVariables = (variables: Record<string, unknown>): Record<string, unknown> =>
  clone(Object.fromEntries(Object.entries(variables).filter(([k]) => !ENGINE_KEYS.has(k))));

/** What this engine reads of an activity event's content (bpmn-engine's API is untyped). */
export interface EngineEventContent {
  message?: { id: string; name?: string };
  signal?: { id: string; name?: string };
  calledElement?: unknown;
  expireAt?: string | number | Date;
}

/** What this engine reads of a script task's or conditional flow's behaviour when it registers it. */
export interface ScriptBehaviour {
  conditionExpression?: { language?: string; body?: unknown };
  scriptFormat?: string;
  script?: unknown;
}
