import { type ScriptBehaviour, userVariables } from './engine-library.js';
import { evaluateFeel, juelToFeel } from './expressions.js';

/** A script the engine registered: its language, its body, and the element type it belongs to. */
export interface RegisteredScript {
  language: string;
  body: string;
  type: string;
}

/** Runs a JavaScript script task or condition (in the sandbox) and calls back with its result. */
export type RunScript = (
  activityId: string,
  script: RegisteredScript,
  scope: { environment: { variables: Record<string, unknown> } },
  callback: (err: Error | null, result?: unknown) => void,
) => void;

/** Timers that only record their due time: a due timer row makes a kernel resume the saved state, whose timer then fires at once. */
export function recordingTimers(): unknown {
  const timers = {
    executing: [] as unknown[],
    register: () => timers,
    setTimeout: (_callback: () => void, _delay: number) => ({ recorded: true }),
    clearTimeout: () => undefined,
  };
  return timers;
}

/** Script tasks and script conditions run in the sandbox; `result` (an object) merges into the variables. */
export function scriptRegistry(run: RunScript): unknown {
  const bodies = new Map<string, RegisteredScript>();
  return {
    register: (activity: { id: string; type: string; behaviour: ScriptBehaviour }) => {
      const condition = activity.type === 'bpmn:SequenceFlow' ? activity.behaviour.conditionExpression : undefined;
      const language = condition ? condition.language : activity.behaviour.scriptFormat;
      const body = condition ? condition.body : activity.behaviour.script;
      if (!language || typeof body !== 'string') return undefined;
      bodies.set(activity.id, { language, body, type: activity.type });
      return undefined;
    },
    getScript: (_language: string, activity: { id: string }) => {
      const script = bodies.get(activity.id);
      if (!script) return undefined;
      // A condition in FEEL (or JUEL) is an expression, not a program: evaluated here, not in the sandbox.
      if (/feel|juel/i.test(script.language))
        return {
          execute: (
            scope: { environment: { variables: Record<string, unknown> } },
            callback: (err: Error | null, result?: unknown) => void,
          ) => {
            try {
              const body = /juel/i.test(script.language)
                ? juelToFeel(script.body.replace(/^\s*[$#]\{([\s\S]*)\}\s*$/, '$1'))
                : script.body.replace(/^\s*=/, '');
              callback(null, evaluateFeel(body, userVariables(scope.environment.variables)));
            } catch (err) {
              callback(err as Error);
            }
          },
        };
      return {
        execute: (
          scope: { environment: { variables: Record<string, unknown> } },
          callback: (err: Error | null, result?: unknown) => void,
        ) => run(activity.id, script, scope, callback),
      };
    },
  };
}
