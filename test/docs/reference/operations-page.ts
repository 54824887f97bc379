import { code, generatedNotice, page, table } from './markdown.js';
import { isSchema, type Schema } from './schema-rows.js';

const METHODS = ['get', 'put', 'post', 'patch', 'delete', 'head', 'options'];

/** One operation of the OpenAPI document, as the page shows it. */
export interface OperationRow {
  readonly id: string;
  readonly tag: string;
  readonly cells: readonly string[];
}

const REF = '#/components/schemas/';

function refName(schema: unknown): string | undefined {
  return isSchema(schema) && typeof schema.$ref === 'string' && schema.$ref.startsWith(REF)
    ? schema.$ref.slice(REF.length)
    : undefined;
}

/** `name` when required, `name?` when not. */
function named(name: string, required: boolean): string {
  return `${code(name)}${required ? '' : '?'}`;
}

function parametersText(operation: Schema): string {
  const parameters = Array.isArray(operation.parameters) ? operation.parameters.filter(isSchema) : [];
  const parts: string[] = [];
  for (const where of ['path', 'query', 'header']) {
    const names = parameters.filter((p) => p.in === where).map((p) => named(String(p.name), p.required === true));
    if (names.length) parts.push(`${where}: ${names.join(', ')}`);
  }
  const body = isSchema(operation.requestBody) ? operation.requestBody : undefined;
  const content = body && isSchema(body.content) ? body.content : {};
  for (const [type, entry] of Object.entries(content)) {
    const schema = isSchema(entry) ? entry.schema : undefined;
    const ref = refName(schema);
    const fields =
      isSchema(schema) && isSchema(schema.properties)
        ? Object.keys(schema.properties).map((name) =>
            named(name, Array.isArray(schema.required) && schema.required.includes(name)),
          )
        : [];
    const described = ref ? code(ref) : fields.join(', ');
    const media = type === 'application/json' ? '' : code(type);
    parts.push(`body: ${[described, media && described ? `(${media})` : media].filter(Boolean).join(' ') || 'JSON'}`);
  }
  return parts.join('; ') || '—';
}

function errorsText(operation: Schema): string {
  const responses = isSchema(operation.responses) ? Object.keys(operation.responses) : [];
  return responses.filter((status) => Number(status) >= 400).join(', ');
}

/** Every operation of the document, in the document's order. */
export function operationRows(openapi: Schema): OperationRow[] {
  const paths = isSchema(openapi.paths) ? openapi.paths : {};
  const rows: OperationRow[] = [];
  for (const [path, item] of Object.entries(paths)) {
    if (!isSchema(item)) continue;
    for (const method of METHODS) {
      const operation = item[method];
      if (!isSchema(operation) || typeof operation.operationId !== 'string') continue;
      const tags = Array.isArray(operation.tags) ? operation.tags.map(String) : [];
      rows.push({
        id: operation.operationId,
        tag: tags[0] ?? 'other',
        cells: [
          `${code(operation.operationId)}: ${typeof operation.summary === 'string' ? operation.summary : ''}`,
          code(`${method.toUpperCase()} ${path}`),
          code(typeof operation['x-permission'] === 'string' ? operation['x-permission'] : 'authenticated'),
          parametersText(operation),
          errorsText(operation),
        ],
      });
    }
  }
  return rows;
}

/** docs/reference/operations.md: every operation by tag, with its permission, parameters and error statuses. */
export function operationsPage(openapi: Schema): string {
  const rows = operationRows(openapi);
  const tags = (Array.isArray(openapi.tags) ? openapi.tags.filter(isSchema) : []).map((t) => ({
    name: String(t.name),
    description: typeof t.description === 'string' ? t.description : '',
  }));
  for (const row of rows) if (!tags.some((t) => t.name === row.tag)) tags.push({ name: row.tag, description: '' });
  const sections = tags.flatMap(({ name, description }) => {
    const ofTag = rows.filter((r) => r.tag === name);
    if (ofTag.length === 0) return [];
    return [
      `## ${name}`,
      description,
      table(
        ['Operation', 'Request', 'Permission', 'Parameters', 'Error statuses'],
        ofTag.map((r) => r.cells),
      ),
    ];
  });
  return page([
    generatedNotice("a started server's `GET /openapi.json` (every built-in plugin enabled)"),
    '# Operations',
    [
      `Every operation of the API, ${rows.length} in all, by tag. The running server serves the same`,
      'document, with every schema, at `GET /openapi.json`; an agent reads it as tools at `GET /agent/tools`.',
      'The operation id is also the MCP tool name.',
    ].join('\n'),
    [
      '- **Permission**: what the caller must hold ([permissions and roles](permissions-and-roles.md));',
      '  `authenticated` takes any valid credential, `public` none.',
      '- **Parameters**: `name?` is optional. `body:` names the schema of the JSON body (under',
      '  `components.schemas` of `/openapi.json`) or lists its fields.',
      '- **Error statuses**: the statuses the operation can answer with an error body; each status’s',
      '  codes are in [error codes](errors.md). Conventions every route follows are in',
      '  [HTTP conventions](http-conventions.md).',
    ].join('\n'),
    ...sections,
  ]);
}
