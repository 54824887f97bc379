import { loadedBpmnLibraries } from './libraries.js';

/**
 * Expressions as the modelers write them, on top of bpmn-engine's own (`${environment.variables.x}`):
 * - Zeebe's FEEL, `= approved`, `= not(approved)`, `= some r in risks satisfies r = "red"`, and
 *   conditions whose language is FEEL, evaluated by feelin against the instance's variables;
 * - Camunda 7's JUEL in its common simple forms, `${approved}`, `${!approved}`,
 *   `${clarified == 'no'}`, `${a > 3 && b}`, read as the FEEL they mean.
 * Paths the engine itself resolves (`${environment…}`, `${content…}`…) stay the engine's.
 */

interface Expressions {
  resolveExpression(expression: string, context?: unknown, fnContext?: unknown): unknown;
  isExpression(text: string): boolean;
  hasExpression(text: string): boolean;
}

const ENGINE_PATH =
  /^\s*(environment|content|properties|fields|variables|services|output|true\s*$|false\s*$|null\s*$|-?\d+(\.\d+)?\s*$)/;
const JUEL = /^\s*[$#]\{([\s\S]+)\}\s*$/;
const FEEL = /^\s*=/;

/** Simple JUEL as FEEL: `==` → `=`, `&&`/`||` → and/or, `!x` → not(x), 'single' → "double" quotes. */
export function juelToFeel(juel: string): string {
  return juel
    .replace(/'([^']*)'/g, (_m, text: string) => JSON.stringify(text))
    .replace(/&&|\band\b/g, ' and ')
    .replace(/\|\||\bor\b/g, ' or ')
    .replace(/==|\beq\b/g, '=')
    .replace(/\bne\b/g, '!=')
    .replace(/!(?!=)\s*\(/g, 'not(')
    .replace(/!(?!=)\s*([A-Za-z_][\w.]*)/g, 'not($1)')
    .replace(/\bnot\s+([A-Za-z_][\w.]*)/g, (m, name: string) => (m.startsWith('not(') ? m : `not(${name})`));
}

/** A FEEL expression's value against the variables; a failure to parse is an error (the instance's incident). */
export function evaluateFeel(expression: string, variables: Record<string, unknown>): unknown {
  const { feel } = loadedBpmnLibraries();
  return feel(expression, variables).value;
}

interface ExpressionContext {
  environment?: { variables?: Record<string, unknown> };
  content?: { loopOutput?: unknown; loopCardinality?: unknown };
}

/**
 * A multi-instance loop's counters, when the engine evaluates the loop's completion condition (its
 * message carries the iterations' outputs so far), under the names Camunda 7 and Zeebe give them:
 * `${nrOfCompletedInstances >= 2}`, `= numberOfCompletedInstances >= 2`.
 */
function loopCounters(context: ExpressionContext | undefined): Record<string, number> {
  const output = context?.content?.loopOutput;
  if (!Array.isArray(output)) return {};
  // Parallel iterations fill their own index: the array may have holes.
  const completed = Object.keys(output).length;
  const cardinality = context?.content?.loopCardinality;
  const instances = typeof cardinality === 'number' ? cardinality : completed;
  const active = Math.max(instances - completed, 0);
  return {
    nrOfInstances: instances,
    nrOfCompletedInstances: completed,
    nrOfActiveInstances: active,
    numberOfInstances: instances,
    numberOfCompletedInstances: completed,
    numberOfActiveInstances: active,
  };
}

const variablesOf = (context: unknown): Record<string, unknown> => {
  const typed = context as ExpressionContext | undefined;
  return { ...(typed?.environment?.variables ?? {}), ...loopCounters(typed) };
};

export function modelExpressions(defaults: Expressions): Expressions {
  return {
    resolveExpression(expression, context, fnContext) {
      if (typeof expression === 'string') {
        if (FEEL.test(expression)) return evaluateFeel(expression.replace(FEEL, ''), variablesOf(context));
        const juel = JUEL.exec(expression);
        if (juel && !ENGINE_PATH.test(juel[1]!)) return evaluateFeel(juelToFeel(juel[1]!), variablesOf(context));
      }
      return defaults.resolveExpression(expression, context, fnContext);
    },
    isExpression: (text) =>
      defaults.isExpression(text) || (typeof text === 'string' && (FEEL.test(text) || JUEL.test(text))),
    hasExpression: (text) =>
      defaults.hasExpression(text) || (typeof text === 'string' && (FEEL.test(text) || JUEL.test(text))),
  };
}
