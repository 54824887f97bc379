/**
 * A parsed definition as bpmn-engine is given it for one process. The stored XML is untouched;
 * only the engine's copy changes:
 * - the one process runs (its siblings in a collaboration are their own definitions);
 * - message flows are left out: this runtime carries a message between pools itself, from the
 *   instance whose activity sent it to the other process's instances (service.ts), so each pool
 *   is its own instance, correlated like any message;
 * - root elements the engine has no behaviour for and that change nothing it runs (item
 *   definitions, interfaces, resources, end points…) are left out, as are activities' resource
 *   assignments (read from the model by extensions.ts instead): the engine's reader stops at them.
 * - a multi-instance loop's vendor collection and element variable (extensions.ts) become the
 *   properties the engine reads.
 */

import { readExtensions } from './extensions.js';

interface Element {
  $type: string;
  id?: string;
  [key: string]: unknown;
}

/** Root elements the engine reads; the others are ignored by it at best and crash its reader at worst. */
const ENGINE_ROOTS = new Set([
  'bpmn:Process',
  'bpmn:Collaboration',
  'bpmn:Message',
  'bpmn:Signal',
  'bpmn:Error',
  'bpmn:Escalation',
  'bpmn:DataStore',
]);

export function engineView<T>(moddleContext: T, processId: string): T {
  const root = (moddleContext as unknown as { rootElement: Element }).rootElement;
  const all = (root.rootElements as Element[] | undefined) ?? [];
  // The process and those its call activities call (in the same file); the other pools are their own
  // definitions (the engine would start one here on a message its start event waits for).
  const byId = new Map(all.filter((e) => e.$type === 'bpmn:Process').map((p) => [p.id, p]));
  const kept = new Set<string>();
  const keep = (id: string) => {
    const process = byId.get(id);
    if (!process || kept.has(id)) return;
    kept.add(id);
    for (const called of calledElements(process)) keep(called);
  };
  keep(processId);
  const rootElements = all.filter(
    (e) => ENGINE_ROOTS.has(e.$type) && (e.$type !== 'bpmn:Process' || kept.has(e.id ?? '')),
  );
  root.rootElements = rootElements;
  for (const element of rootElements) {
    if (element.$type === 'bpmn:Collaboration') element.messageFlows = [];
    if (element.$type === 'bpmn:Process') {
      element.isExecutable = element.id === processId;
      dropResources(element);
    }
  }
  return moddleContext;
}

function dropResources(container: Element): void {
  for (const element of (container.flowElements as Element[] | undefined) ?? []) {
    delete element.resources;
    const loopCharacteristics = element.loopCharacteristics as Element | undefined;
    if (loopCharacteristics) Object.assign(loopCharacteristics, readExtensions.loop(loopCharacteristics));
    if (element.flowElements) dropResources(element);
  }
  delete container.resources;
}

/** The process ids a container's call activities call (a string calledElement; zeebe:calledElement too). */
function calledElements(container: Element): string[] {
  const result: string[] = [];
  for (const element of (container.flowElements as Element[] | undefined) ?? []) {
    if (element.$type === 'bpmn:CallActivity') {
      if (typeof element.calledElement === 'string') result.push(element.calledElement);
    }
    if (element.flowElements) result.push(...calledElements(element));
  }
  return result;
}
