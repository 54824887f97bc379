import { ApiError } from '../../kernel/errors.js';
import type { Sandbox } from '../../sandbox/types.js';

/**
 * What checking a deployed model needs besides the parse itself (definitions.ts): walking
 * moddle's tree, pointing at the line of an element, refusing in the spec's shape, and compiling
 * the model's JavaScript in the sandbox.
 */

export interface ModdleElement {
  $type: string;
  id?: string;
  name?: string;
  $attrs?: Record<string, string>;
  [key: string]: unknown;
}

export function refuse(message: string, line?: number, element?: string): ApiError {
  const at = line !== undefined ? ` (line ${line})` : '';
  return new ApiError('validation_error', `${message}${at}`, {
    details: [{ in: 'body', pointer: '', message: `${element ? `${element}: ` : ''}${message}${at}` }],
  });
}

/** The 1-based line of the first `id="…"` in the XML, to point at an element moddle found. */
export function lineOf(xml: string, id: string | undefined): number | undefined {
  if (!id) return undefined;
  const at = xml.indexOf(`id="${id}"`);
  return at < 0 ? undefined : xml.slice(0, at).split('\n').length;
}

/** moddle's "unparsable content <x> detected / line: N / nested error: …" as one sentence. */
export function fromWarning(text: string): ApiError {
  const element = /<\/?([^ >]+)/.exec(text)?.[1];
  const line = /line: (\d+)/.exec(text)?.[1];
  const nested = /nested error: (.*)/.exec(text)?.[1] ?? text.split('\n')[0];
  return refuse(
    `Not valid BPMN: ${nested}${element ? ` at <${element}>` : ''}`,
    line !== undefined ? Number(line) + 1 : undefined,
    element,
  );
}

export function walk(
  node: unknown,
  seen: Set<unknown>,
  visit: (e: ModdleElement, parent: ModdleElement | undefined) => void,
  parent?: ModdleElement,
): void {
  if (!node || typeof node !== 'object' || seen.has(node)) return;
  seen.add(node);
  if (Array.isArray(node)) {
    for (const item of node) walk(item, seen, visit, parent);
    return;
  }
  const element = node as ModdleElement;
  if (typeof element.$type !== 'string') return;
  visit(element, parent);
  // Another vendor's element: kept whole, not looked into.
  if (!element.$type.startsWith('bpmn:')) return;
  for (const [key, value] of Object.entries(element)) {
    // References (sourceRef, attachedToRef, messageRef…) point at elements visited elsewhere.
    if (key.startsWith('$') || key.endsWith('Ref') || key === 'default' || key === 'incoming' || key === 'outgoing')
      continue;
    walk(value, seen, visit, element);
  }
}

/** Prefixes whose attributes and elements this runtime reads (extensions.ts) or that XML itself defines. */
export const isRead = (name: string): boolean => /^(xmlns|xsi|xml)(:|$)/.test(name);

/**
 * Every JavaScript script task and scripted condition must compile, checked in the sandbox's own
 * interpreter without running anything (sandbox/compile-check.ts): a syntax error is a 400 at
 * deploy naming the element, its line in the XML and the line in the script, not an incident
 * at the first instance that reaches it. FEEL and JUEL conditions are expressions, not scripts.
 */
export async function checkScripts(
  elements: Iterable<ModdleElement>,
  xml: string,
  sandbox: Pick<Sandbox, 'compileCheck'> | undefined,
): Promise<void> {
  if (!sandbox) return;
  for (const element of elements) {
    const condition =
      element.$type === 'bpmn:SequenceFlow' ? (element.conditionExpression as ModdleElement | undefined) : undefined;
    const language = condition
      ? condition.language
      : element.$type === 'bpmn:ScriptTask'
        ? element.scriptFormat
        : undefined;
    const body = condition ? condition.body : element.script;
    if (typeof language !== 'string' || !/^(javascript|js)$/i.test(language) || typeof body !== 'string') continue;
    const problem = await sandbox.compileCheck(body);
    if (!problem) continue;
    const what = condition ? 'The condition of sequence flow' : 'Script task';
    const inScript = problem.line !== undefined ? `script line ${problem.line}: ` : '';
    throw refuse(
      `${what} "${element.id ?? '?'}" does not compile: ${inScript}${problem.message}`,
      lineOf(xml, element.id),
      element.id,
    );
  }
}
