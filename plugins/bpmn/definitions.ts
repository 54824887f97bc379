import { createHash } from 'node:crypto';
import type { Sandbox } from '../../sandbox/types.js';
import { checkScripts, fromWarning, isRead, lineOf, type ModdleElement, refuse, walk } from './deploy-checks.js';
import { engineView } from './engine-view.js';
import { bpmnLibraries } from './libraries.js';
import { readExtensions, type TaskSpec } from './extensions.js';

/**
 * Deployed BPMN: parsed and checked with bpmn-moddle before anything is stored. Every process
 * of the file becomes a definition (a collaboration's pools each their own); elements the engine
 * cannot run are refused by name, id and line (so a definition never fails later, half-way
 * through an instance); other vendors' extensions stay in the XML, are ignored and reported as
 * warnings.
 */

/** BPMN elements this runtime refuses: bpmn-engine has no behaviour for them (docs/guides/bpmn.md lists them). */
export const UNSUPPORTED = new Set([
  'bpmn:ComplexGateway',
  'bpmn:AdHocSubProcess',
  'bpmn:GlobalTask',
  'bpmn:GlobalUserTask',
  'bpmn:GlobalManualTask',
  'bpmn:GlobalScriptTask',
  'bpmn:GlobalBusinessRuleTask',
  'bpmn:Choreography',
  'bpmn:ChoreographyTask',
  'bpmn:SubChoreography',
  'bpmn:CallChoreography',
  'bpmn:GlobalChoreographyTask',
  'bpmn:Conversation',
  'bpmn:SubConversation',
  'bpmn:CallConversation',
  'bpmn:GlobalConversation',
]);
const DIAGRAM_PREFIXES = ['bpmndi:', 'dc:', 'di:'];

/** A message flow leaving an activity of this process: when the activity ends, its message goes to the other pool. */
export interface MessageFlowSpec {
  /** The activity (send task, throw or end event) the flow leaves. */
  source: string;
  /** The message's name (its messageRef's name or id, else the flow's name or id). */
  message: string;
  /** The process the flow enters (a pool's process), when it has one. */
  target_process: string | null;
  /** The element the flow enters (a start event, catch event or receive task), or null for the pool itself. */
  target_activity: string | null;
  /** The flow enters a message start event: a new instance of the target process starts. */
  target_is_start?: boolean;
  /** The message's id, whose correlationKey attribute (if any) names the correlating variable. */
  message_ref?: string | null;
}

/** What the engine and the plugin need to know about a definition beyond its XML. */
export interface DefinitionMeta {
  process_id: string;
  name: string | null;
  /** isExecutable="true": instances may start. Others are kept for viewing (older rows: absent, executable). */
  executable?: boolean;
  /** The deployment (one POST) that stored this definition with its sibling processes. */
  deployment?: string;
  /** Activities with an error boundary event: their failures go to the boundary, not to an incident. */
  error_caught: string[];
  /** Message id → the variable whose value is the correlation key (default: the business key). */
  correlation: Record<string, string>;
  /** Element ids by BPMN type, to check a replay's `from_activity`. */
  activities: string[];
  /** Service, send and business-rule tasks whose model names a job type (zeebe:taskDefinition, camunda:topic, rt:jobType). */
  jobs?: Record<string, string>;
  /** User tasks' assignment, due date and form read from camunda: / zeebe: attributes. */
  tasks?: Record<string, TaskSpec>;
  message_flows?: MessageFlowSpec[];
  /** Call activities: the process they call (calledElement, zeebe:calledElement), a pinned version, whether the child's variables come back. */
  calls?: Record<string, { process_id: string; version?: number; variables_out: boolean }>;
  /** The processes of the same file: a call activity calling one of them runs inside the engine. */
  local_processes?: string[];
}

export interface ParsedDeployment {
  processes: DefinitionMeta[];
  /** What was kept in the XML but ignored (other vendors' extensions, unresolved references). */
  warnings: string[];
  xmlHash: string;
}

/** Parses and checks deployed XML; throws 400 naming what is wrong. */
export async function parseDefinition(xml: string, sandbox?: Pick<Sandbox, 'compileCheck'>): Promise<ParsedDeployment> {
  if (xml.trim().length === 0) throw refuse('The body is empty; send BPMN 2.0 XML.');
  let parsed: {
    rootElement: ModdleElement;
    warnings: Array<{ message: string }>;
    elementsById: Record<string, ModdleElement>;
  };
  try {
    const { BpmnModdle } = await bpmnLibraries();
    parsed = (await new BpmnModdle().fromXML(xml)) as unknown as typeof parsed;
  } catch (err) {
    const warnings = (err as { warnings?: Array<{ message: string }> }).warnings ?? [];
    throw fromWarning(warnings[0]?.message ?? (err as Error).message);
  }
  const warnings = new Map<string, number>();
  const warn = (text: string) => warnings.set(text, (warnings.get(text) ?? 0) + 1);
  for (const warning of parsed.warnings) {
    // A reference to something the file does not define (often another vendor's) is ignored; anything else is not BPMN.
    if (/^unresolved reference/.test(warning.message)) warn(`ignored: ${warning.message.split('\n')[0]}`);
    else throw fromWarning(warning.message);
  }
  const root = parsed.rootElement;
  const rootElements = (root.rootElements as ModdleElement[] | undefined) ?? [];
  const processes = rootElements.filter((e) => e.$type === 'bpmn:Process');
  if (processes.length === 0) throw refuse('The definitions hold no process.');

  // Messages are global: their correlation keys serve every process of the file.
  const correlation: Record<string, string> = {};
  walk(root, new Set(), (element) => {
    const type = element.$type;
    if (DIAGRAM_PREFIXES.some((p) => type.startsWith(p))) return;
    if (!type.startsWith('bpmn:')) {
      if (!readExtensions.elements.has(type)) warn(`ignored extension element <${type}>`);
      return;
    }
    if (UNSUPPORTED.has(type))
      throw refuse(
        `<${type}>${element.id ? ` "${element.id}"` : ''} is not supported by this runtime (docs/guides/bpmn.md lists what is)`,
        lineOf(xml, element.id),
        type,
      );
    for (const name of Object.keys(element.$attrs ?? {}))
      if (
        !isRead(name) &&
        !readExtensions.attributes.has(name.replace(/^[^:]+:/, '*:')) &&
        !readExtensions.attributes.has(name)
      )
        warn(`ignored extension attribute ${name}`);
    if (type === 'bpmn:Message' && element.id) {
      const attribute = Object.entries(element.$attrs ?? {}).find(
        ([name]) => name === 'correlationKey' || name.endsWith(':correlationKey'),
      );
      if (attribute) correlation[element.id] = attribute[1];
    }
  });

  const flows = messageFlows(rootElements, processes);
  const metas = processes.map((process) => {
    if (!process.id) throw refuse('A process has no id.');
    const meta: DefinitionMeta = {
      process_id: process.id,
      name: typeof process.name === 'string' ? process.name : null,
      executable: process.isExecutable === true,
      error_caught: [],
      correlation,
      activities: [],
      jobs: {},
      tasks: {},
      message_flows: flows.filter((f) => f.process === process.id).map(({ process: _, ...f }) => f),
      calls: {},
      local_processes: processes.map((p) => p.id!).filter(Boolean),
    };
    walk(process, new Set(), (element) => {
      const type = element.$type;
      if (type === 'bpmn:BoundaryEvent') {
        const definitions = (element.eventDefinitions as ModdleElement[] | undefined) ?? [];
        const attached = (element.attachedToRef as ModdleElement | undefined)?.id;
        if (attached && definitions.some((d) => d.$type === 'bpmn:ErrorEventDefinition'))
          meta.error_caught.push(attached);
      }
      if (!element.id) return;
      if (/Task$|Event$|Gateway$|SubProcess$|^bpmn:Transaction$|^bpmn:CallActivity$/.test(type))
        meta.activities.push(element.id);
      if (type === 'bpmn:CallActivity') {
        const call = readExtensions.call(element);
        if (call) meta.calls![element.id] = call;
      }
      const job = readExtensions.jobType(element);
      if (job !== undefined) meta.jobs![element.id] = job;
      if (type === 'bpmn:UserTask') {
        const task = readExtensions.task(element);
        if (Object.keys(task).length > 0) meta.tasks![element.id] = task;
      }
    });
    return meta;
  });
  if (processes.length > 1 && new Set(metas.map((m) => m.process_id)).size !== metas.length)
    throw refuse('Two processes of the file have the same id.');

  await checkScripts(Object.values(parsed.elementsById), xml, sandbox);

  // What bpmn-engine itself cannot read: refused now, named, rather than at the first start.
  const { BpmnModdle, Engine } = await bpmnLibraries();
  for (const meta of metas) {
    try {
      const view = engineView(await new BpmnModdle().fromXML(xml), meta.process_id);
      await new Engine({ name: 'check', moddleContext: view } as never).getDefinitions();
    } catch (err) {
      const message = (err as Error).message;
      const unknown = /Unknown activity type (\S+)/.exec(message)?.[1];
      if (unknown) {
        const element = Object.values(parsed.elementsById).find((e) => e.$type === unknown);
        throw refuse(
          `<${unknown}>${element?.id ? ` "${element.id}"` : ''} is not supported by this runtime (docs/guides/bpmn.md lists what is)`,
          lineOf(xml, element?.id),
          unknown,
        );
      }
      throw refuse(`bpmn-engine cannot read process "${meta.process_id}": ${message}`);
    }
  }
  return {
    processes: metas,
    warnings: [...warnings].map(([text, count]) => (count > 1 ? `${text} (${count}×)` : text)).slice(0, 200),
    xmlHash: createHash('sha256').update(xml).digest('hex'),
  };
}

/** The file's message flows, by the process whose activity they leave (flows from a whole pool carry nothing to send). */
function messageFlows(
  rootElements: ModdleElement[],
  processes: ModdleElement[],
): Array<MessageFlowSpec & { process: string }> {
  const owner = new Map<string, string>();
  const byId = new Map<string, ModdleElement>();
  for (const process of processes) {
    walk(process, new Set(), (element) => {
      if (!element.id || element === process) return;
      owner.set(element.id, process.id!);
      byId.set(element.id, element);
    });
  }
  /** The message an element waits for (a receive task's, a message event's): what the flow must be called to reach it. */
  const awaited = (id: string): ModdleElement | undefined => {
    const element = byId.get(id);
    const definition = ((element?.eventDefinitions as ModdleElement[] | undefined) ?? []).find(
      (d) => d.$type === 'bpmn:MessageEventDefinition',
    );
    return (definition?.messageRef ?? element?.messageRef) as ModdleElement | undefined;
  };
  const participants = new Map<string, string>();
  const result: Array<MessageFlowSpec & { process: string }> = [];
  for (const collaboration of rootElements.filter((e) => e.$type === 'bpmn:Collaboration')) {
    for (const p of (collaboration.participants as ModdleElement[] | undefined) ?? [])
      if (p.id && (p.processRef as ModdleElement | undefined)?.id)
        participants.set(p.id, (p.processRef as ModdleElement).id!);
    for (const flow of (collaboration.messageFlows as ModdleElement[] | undefined) ?? []) {
      const source = (flow.sourceRef as ModdleElement | undefined)?.id;
      const target = (flow.targetRef as ModdleElement | undefined)?.id;
      const process = source ? owner.get(source) : undefined;
      if (!source || !target || !process) continue;
      const targetProcess = owner.get(target) ?? participants.get(target) ?? null;
      const message = awaited(target) ?? (flow.messageRef as ModdleElement | undefined);
      result.push({
        process,
        source,
        message: message?.name ?? message?.id ?? flow.name ?? flow.id ?? source,
        target_process: targetProcess,
        target_activity: owner.has(target) ? target : null,
        target_is_start: byId.get(target)?.$type === 'bpmn:StartEvent',
        message_ref: message?.id ?? null,
      });
    }
  }
  return result;
}
