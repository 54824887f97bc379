import { createHash } from 'node:crypto';
import { ApiError } from '../../kernel/errors.js';
import { bpmnLibraries } from './libraries.js';

/**
 * Deployed BPMN: parsed and checked with bpmn-moddle before anything is stored. Only elements
 * the engine runs and this plugin tests are accepted; anything else is refused by name and line
 * (so a definition never fails later, half-way through an instance).
 */

/** Elements the plugin runs (and the diagram interchange, which it ignores). */
const SUPPORTED = new Set([
  'bpmn:Definitions', 'bpmn:Process', 'bpmn:StartEvent', 'bpmn:EndEvent', 'bpmn:IntermediateCatchEvent',
  'bpmn:BoundaryEvent', 'bpmn:SequenceFlow', 'bpmn:Task', 'bpmn:ServiceTask', 'bpmn:ScriptTask', 'bpmn:UserTask', 'bpmn:ReceiveTask',
  'bpmn:ExclusiveGateway', 'bpmn:ParallelGateway', 'bpmn:SubProcess', 'bpmn:Message', 'bpmn:Signal', 'bpmn:Error',
  'bpmn:TimerEventDefinition', 'bpmn:MessageEventDefinition', 'bpmn:SignalEventDefinition', 'bpmn:ErrorEventDefinition',
  'bpmn:FormalExpression', 'bpmn:Expression', 'bpmn:Documentation', 'bpmn:ExtensionElements', 'bpmn:LaneSet', 'bpmn:Lane', 'bpmn:TextAnnotation', 'bpmn:Association',
]);
const IGNORED_PREFIXES = ['bpmndi:', 'dc:', 'di:'];

/** What the engine and the plugin need to know about a definition beyond its XML. */
export interface DefinitionMeta {
  process_id: string;
  name: string | null;
  /** Activities with an error boundary event: their failures go to the boundary, not to an incident. */
  error_caught: string[];
  /** Message id → the variable whose value is the correlation key (default: the business key). */
  correlation: Record<string, string>;
  /** Element ids by BPMN type, to check a replay's `from_activity`. */
  activities: string[];
}

export interface ParsedDefinition {
  meta: DefinitionMeta;
  xmlHash: string;
}

interface ModdleElement {
  $type: string;
  id?: string;
  name?: string;
  $attrs?: Record<string, string>;
  [key: string]: unknown;
}

function refuse(message: string, line?: number, element?: string): ApiError {
  const at = line !== undefined ? ` (line ${line})` : '';
  return new ApiError('validation_error', `${message}${at}`, { details: [{ in: 'body', pointer: '', message: `${element ? `${element}: ` : ''}${message}${at}` }] });
}

/** The 1-based line of the first `id="…"` in the XML, to point at an element moddle found. */
function lineOf(xml: string, id: string | undefined): number | undefined {
  if (!id) return undefined;
  const at = xml.indexOf(`id="${id}"`);
  return at < 0 ? undefined : xml.slice(0, at).split('\n').length;
}

/** moddle's "unparsable content <x> detected / line: N / nested error: …" as one sentence. */
function fromWarning(text: string): ApiError {
  const element = /<\/?([^ >]+)/.exec(text)?.[1];
  const line = /line: (\d+)/.exec(text)?.[1];
  const nested = /nested error: (.*)/.exec(text)?.[1] ?? text.split('\n')[0];
  return refuse(`Not valid BPMN: ${nested}${element ? ` at <${element}>` : ''}`, line !== undefined ? Number(line) + 1 : undefined, element);
}

function walk(node: unknown, seen: Set<unknown>, visit: (e: ModdleElement) => void): void {
  if (!node || typeof node !== 'object' || seen.has(node)) return;
  seen.add(node);
  if (Array.isArray(node)) {
    for (const item of node) walk(item, seen, visit);
    return;
  }
  const element = node as ModdleElement;
  if (typeof element.$type !== 'string') return;
  visit(element);
  for (const [key, value] of Object.entries(element)) {
    // References (sourceRef, attachedToRef, messageRef…) point at elements visited elsewhere.
    if (key.startsWith('$') || key.endsWith('Ref') || key === 'default' || key === 'incoming' || key === 'outgoing') continue;
    walk(value, seen, visit);
  }
}

/** Parses and checks deployed XML; throws 400 naming what is wrong. */
export async function parseDefinition(xml: string): Promise<ParsedDefinition> {
  if (xml.trim().length === 0) throw refuse('The body is empty; send BPMN 2.0 XML.');
  let parsed: { rootElement: ModdleElement; warnings: Array<{ message: string }> };
  try {
    const { BpmnModdle } = await bpmnLibraries();
    parsed = (await new BpmnModdle().fromXML(xml)) as unknown as typeof parsed;
  } catch (err) {
    const warnings = (err as { warnings?: Array<{ message: string }> }).warnings ?? [];
    throw fromWarning(warnings[0]?.message ?? (err as Error).message);
  }
  if (parsed.warnings.length > 0) throw fromWarning(parsed.warnings[0]!.message);
  const root = parsed.rootElement;
  const processes = ((root.rootElements as ModdleElement[] | undefined) ?? []).filter((e) => e.$type === 'bpmn:Process');
  if (processes.length !== 1) throw refuse(`A definition holds exactly one process; this one holds ${processes.length}.`);
  const process = processes[0]!;
  if (!process.id) throw refuse('The process has no id.');

  const meta: DefinitionMeta = { process_id: process.id, name: typeof process.name === 'string' ? process.name : null, error_caught: [], correlation: {}, activities: [] };
  walk(root, new Set(), (element) => {
    const type = element.$type;
    if (IGNORED_PREFIXES.some((p) => type.startsWith(p))) return;
    if (!SUPPORTED.has(type)) throw refuse(`Unsupported element <${type}>${element.id ? ` "${element.id}"` : ''}`, lineOf(xml, element.id), type);
    if (type === 'bpmn:BoundaryEvent') {
      const definitions = (element.eventDefinitions as ModdleElement[] | undefined) ?? [];
      const attached = (element.attachedToRef as ModdleElement | undefined)?.id;
      if (attached && definitions.some((d) => d.$type === 'bpmn:ErrorEventDefinition')) meta.error_caught.push(attached);
    }
    if (type === 'bpmn:Message' && element.id) {
      const attribute = Object.entries(element.$attrs ?? {}).find(([name]) => name === 'correlationKey' || name.endsWith(':correlationKey'));
      if (attribute) meta.correlation[element.id] = attribute[1];
    }
    if (element.id && /Task$|Event$|Gateway$|SubProcess$/.test(type)) meta.activities.push(element.id);
  });
  return { meta, xmlHash: createHash('sha256').update(xml).digest('hex') };
}
