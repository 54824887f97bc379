/**
 * The vendor extensions this runtime reads from a model (docs/guides/bpmn.md lists them); every
 * other extension element or attribute is kept in the XML and reported as ignored.
 */

interface Element {
  $type: string;
  id?: string;
  $attrs?: Record<string, string>;
  $children?: Element[];
  extensionElements?: { values?: Element[] };
  [key: string]: unknown;
}

/** A user task's assignment, due date and form, as the model states them (expressions unresolved). */
export interface TaskSpec {
  assignee?: string;
  candidate_users?: string[];
  candidate_groups?: string[];
  due_date?: string;
  /** camunda:formData as a JSON Schema of the variables the task's completion is expected to carry. */
  form?: Record<string, unknown>;
}

const SERVICE_LIKE = new Set(['bpmn:ServiceTask', 'bpmn:SendTask', 'bpmn:BusinessRuleTask']);
const list = (value: unknown): string[] | undefined =>
  typeof value === 'string' && value.trim() !== ''
    ? value
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : undefined;
const attr = (element: Element, name: string): string | undefined => element.$attrs?.[name];
/** An attribute in any namespace prefix (`rt:jobType`, `runtime:jobType`). */
const anyPrefix = (element: Element, local: string): string | undefined =>
  Object.entries(element.$attrs ?? {}).find(([name]) => name.endsWith(`:${local}`))?.[1];
const extension = (element: Element, type: string): Element | undefined =>
  element.extensionElements?.values?.find((v) => v.$type === type);

function jobType(element: Element): string | undefined {
  if (!SERVICE_LIKE.has(element.$type)) return undefined;
  const zeebe = extension(element, 'zeebe:taskDefinition');
  if (typeof zeebe?.type === 'string' && zeebe.type !== '') return zeebe.type;
  const topic = attr(element, 'camunda:topic');
  if (attr(element, 'camunda:type') === 'external' && topic) return topic;
  return anyPrefix(element, 'jobType');
}

const FORM_TYPES: Record<string, Record<string, unknown>> = {
  string: { type: 'string' },
  long: { type: 'integer' },
  boolean: { type: 'boolean' },
  date: { type: 'string', format: 'date-time' },
};

/** camunda:formData's fields as a JSON Schema: each field a property, typed, labelled, with its default and enum values. */
function formSchema(formData: Element): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const field of formData.$children ?? []) {
    if (field.$type !== 'camunda:formField' || typeof field.id !== 'string') continue;
    const type = String(field.type ?? 'string');
    const children = field.$children ?? [];
    const values = children.filter((c) => c.$type === 'camunda:value' && typeof c.id === 'string');
    const property: Record<string, unknown> =
      type === 'enum' ? { type: 'string', enum: values.map((v) => v.id) } : { ...(FORM_TYPES[type] ?? {}) };
    if (typeof field.label === 'string') property.title = field.label;
    if (field.defaultValue !== undefined) property.default = field.defaultValue;
    const constraints = children
      .filter((c) => c.$type === 'camunda:validation')
      .flatMap((v) => v.$children ?? [])
      .filter((c) => c.$type === 'camunda:constraint');
    if (constraints.some((c) => c.name === 'required')) required.push(field.id);
    if (constraints.some((c) => c.name === 'readonly')) property.readOnly = true;
    properties[field.id] = property;
  }
  return { type: 'object', properties, ...(required.length > 0 ? { required } : {}) };
}

function task(element: Element): TaskSpec {
  const spec: TaskSpec = {};
  const zeebe = extension(element, 'zeebe:assignmentDefinition');
  const schedule = extension(element, 'zeebe:taskSchedule');
  const assignee = attr(element, 'camunda:assignee') ?? (zeebe?.assignee as string | undefined);
  if (assignee) spec.assignee = assignee;
  const users = list(attr(element, 'camunda:candidateUsers') ?? zeebe?.candidateUsers);
  if (users) spec.candidate_users = users;
  const groups = list(attr(element, 'camunda:candidateGroups') ?? zeebe?.candidateGroups);
  if (groups) spec.candidate_groups = groups;
  const due = attr(element, 'camunda:dueDate') ?? (schedule?.dueDate as string | undefined);
  if (due) spec.due_date = due;
  const formData = extension(element, 'camunda:formData');
  if (formData) spec.form = formSchema(formData);
  return spec;
}

/** What a call activity calls: `calledElement` (with camunda:calledElementBinding="version" and camunda:calledElementVersion) or zeebe:calledElement processId (propagateAllChildVariables="false": nothing comes back). */
function call(element: Element): { process_id: string; version?: number; variables_out: boolean } | undefined {
  const zeebe = extension(element, 'zeebe:calledElement');
  const processId = typeof element.calledElement === 'string' ? element.calledElement : (zeebe?.processId as string);
  if (!processId) return undefined;
  const version =
    attr(element, 'camunda:calledElementBinding') === 'version'
      ? Number(attr(element, 'camunda:calledElementVersion'))
      : NaN;
  return {
    process_id: processId,
    ...(Number.isInteger(version) && version > 0 ? { version } : {}),
    variables_out: zeebe?.propagateAllChildVariables !== 'false',
  };
}

/**
 * A multi-instance loop's collection and element variable as the modelers write them (Camunda 7's
 * `camunda:collection` / `camunda:elementVariable`, Zeebe's `zeebe:loopCharacteristics`
 * `inputCollection` / `inputElement`), in the properties bpmn-engine reads; the collection stays
 * an expression (`${reviewers}`, `= reviewers`), which the instance's expressions resolve.
 */
function loop(loopCharacteristics: Element): { collection?: string; elementVariable?: string } {
  const zeebe = extension(loopCharacteristics, 'zeebe:loopCharacteristics');
  const collection = attr(loopCharacteristics, 'camunda:collection') ?? (zeebe?.inputCollection as string | undefined);
  const elementVariable =
    attr(loopCharacteristics, 'camunda:elementVariable') ?? (zeebe?.inputElement as string | undefined);
  return {
    ...(collection ? { collection } : {}),
    ...(elementVariable ? { elementVariable } : {}),
  };
}

export const readExtensions = {
  elements: new Set([
    'zeebe:taskDefinition',
    'zeebe:assignmentDefinition',
    'zeebe:taskSchedule',
    'zeebe:loopCharacteristics',
    'camunda:formData',
  ]),
  /** `*:` matches any prefix. */
  attributes: new Set([
    'camunda:type',
    'camunda:topic',
    'camunda:assignee',
    'camunda:candidateUsers',
    'camunda:candidateGroups',
    'camunda:dueDate',
    '*:jobType',
    '*:correlationKey',
    'camunda:calledElementBinding',
    'camunda:calledElementVersion',
    'camunda:collection',
    'camunda:elementVariable',
  ]),
  jobType,
  loop,
  call,
  task,
};
