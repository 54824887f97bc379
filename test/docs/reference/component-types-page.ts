import { code, generatedNotice, page, table } from './markdown.js';
import {
  defaultText,
  descriptionText,
  dottedPath,
  isSchema,
  propertyRows,
  type Schema,
  typeText,
} from './schema-rows.js';
import type { ReferenceSources } from './sources.js';

const KINDS = [
  { kind: 'source', title: 'Sources', what: 'bring messages in and append them to a stream' },
  { kind: 'processor', title: 'Processors', what: 'are the steps of a workflow' },
  { kind: 'sink', title: 'Sinks', what: 'deliver a workflow’s outputs' },
];

/** Which properties must be given together or instead of each other (a top-level oneOf/anyOf of `required` sets). */
function alternativesText(schema: Schema): string | undefined {
  for (const [keyword, words] of [
    ['oneOf', 'Give exactly one of'],
    ['anyOf', 'Give at least one of'],
  ] as const) {
    const sets = Array.isArray(schema[keyword]) ? schema[keyword].filter(isSchema) : [];
    const named = sets.map((set) => (Array.isArray(set.required) ? set.required.map((r) => code(String(r))) : []));
    if (named.length > 0 && named.every((names) => names.length > 0))
      return `${words}: ${named.map((names) => names.join(' and ')).join(' or ')}.`;
  }
  return undefined;
}

/** The config's properties as a table, nested objects flattened to dotted paths. */
export function configTable(schema: Schema): string {
  const rows = propertyRows(schema);
  const about = typeof schema.description === 'string' ? schema.description : undefined;
  if (rows.length === 0) return about ?? 'No configuration.';
  return page([
    about,
    table(
      ['Property', 'Type', 'Required', 'Default', 'Description'],
      rows.map((row) => [
        code(dottedPath(row.path)),
        typeText(row.schema),
        row.required ? 'yes' : 'no',
        defaultText(row.schema),
        descriptionText(row.schema),
      ]),
    ),
    alternativesText(schema),
  ]).trimEnd();
}

/** docs/reference/component-types.md: each contributed component type with its config schema. */
export function componentTypesPage(types: ReferenceSources['componentTypes']): string {
  const known = new Set(KINDS.map((k) => k.kind));
  const kinds = [
    ...KINDS,
    ...[...new Set(types.map((t) => t.kind).filter((k) => !known.has(k)))].map((kind) => ({
      kind,
      title: kind,
      what: '',
    })),
  ];
  const sections = kinds.flatMap(({ kind, title, what }) => {
    const ofKind = types.filter((t) => t.kind === kind).sort((a, b) => a.name.localeCompare(b.name));
    if (ofKind.length === 0) return [];
    return [
      `## ${title}`,
      what ? `${title} ${what}.` : '',
      ...ofKind.flatMap((t) => [
        `### ${t.name}`,
        `${t.summary}${t.summary && !t.summary.endsWith('.') ? '.' : ''} Contributed by the ${t.plugin} plugin.`.trim(),
        configTable(t.config_schema),
      ]),
    ];
  });
  return page([
    generatedNotice("a started server's `GET /component-types` (every built-in plugin enabled)"),
    '# Component types',
    [
      'Every component type the built-in plugins contribute, with the schema of its `config`. A',
      'component (`POST /components`) or a workflow step or sink names its type and gives a config',
      'that matches it; a plugin that is not enabled contributes none. A secret property is',
      'write-only: encrypted at rest, never returned. How the types behave is in',
      '[components and connectors](../guides/components-and-connectors.md) and [workflows](../guides/workflows.md).',
    ].join('\n'),
    ...sections,
  ]);
}
