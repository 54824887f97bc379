import { settingVariable } from '../../../kernel/config/env-settings.js';
import { PROCESS_VARIABLES } from '../../../kernel/config/process-variables.js';
import { code, generatedNotice, page, table } from './markdown.js';
import {
  defaultText,
  descriptionText,
  dottedPath,
  isSchema,
  type PropertyRow,
  propertyRows,
  type Schema,
  typeText,
} from './schema-rows.js';
import type { ReferenceSources } from './sources.js';

/** A kernel setting's dotted path (`http.port`), or a plugin's (`settings.sql.max_rows`). */
export interface SettingEntry {
  readonly setting: string;
  readonly cells: readonly string[];
}

const HEADERS = ['Setting', 'Type', 'Default', 'Environment variable', 'Description'];

function rowCells(setting: string, row: PropertyRow, variables: readonly string[]): string[] {
  return [
    code(setting),
    typeText(row.schema),
    defaultText(row.schema),
    variables.length ? variables.map(code).join(' or ') : '—',
    descriptionText(row.schema),
  ];
}

/** The kernel's settings (config/config.schema.json but the per-plugin `settings`), with the variable that sets each. */
export function kernelSettings(configSchema: Schema): SettingEntry[] {
  return propertyRows(configSchema)
    .filter((row) => row.path[0] !== '$schema' && row.path[0] !== 'settings')
    .map((row) => {
      const setting = dottedPath(row.path);
      const variables = PROCESS_VARIABLES.filter((v) => v.setting === setting).map((v) => v.name);
      return { setting, cells: rowCells(setting, row, variables) };
    });
}

/**
 * A plugin's settings, each with its RUNTIME_SETTINGS__ variable (none inside an array: the array
 * is set whole) and, for a top-level setting, the shorter `x-env` name the plugin declares.
 */
export function pluginSettingEntries(plugin: string, schema: Schema): SettingEntry[] {
  return propertyRows(schema).map((row) => {
    const setting = `settings.${plugin}.${dottedPath(row.path)}`;
    const variables = row.path.includes('[]') ? [] : [settingVariable(plugin, row.path)];
    const alias = row.schema['x-env'];
    if (row.path.length === 1 && typeof alias === 'string') variables.push(alias);
    return { setting, cells: rowCells(setting, row, variables) };
  });
}

/** Every leaf of a profile file as [dotted path, value]; arrays are values. */
function profileLeaves(value: Schema, prefix: readonly string[] = []): Array<[string, unknown]> {
  return Object.entries(value).flatMap(([key, inner]): Array<[string, unknown]> => {
    if (prefix.length === 0 && key === '$schema') return [];
    const path = [...prefix, key];
    return isSchema(inner) && Object.keys(inner).length > 0 ? profileLeaves(inner, path) : [[path.join('.'), inner]];
  });
}

function profilesTable(profiles: ReferenceSources['profiles']): string {
  const names = Object.keys(profiles);
  const values = names.map((name) => new Map(profileLeaves(profiles[name] ?? {})));
  const settings = [...new Set(values.flatMap((v) => [...v.keys()]))];
  return table(
    ['Setting', ...names.map((name) => code(name))],
    settings.map((setting) => [
      code(setting),
      ...values.map((v) => (v.has(setting) ? code(JSON.stringify(v.get(setting))) : '')),
    ]),
  );
}

/** docs/reference/settings.md: every kernel and plugin setting, its default and its environment variable. */
export function settingsPage(sources: Pick<ReferenceSources, 'configSchema' | 'profiles' | 'pluginSettings'>): string {
  const plugins = sources.pluginSettings.flatMap(({ plugin, schema }) => [
    `### ${plugin}`,
    table(
      HEADERS,
      pluginSettingEntries(plugin, schema).map((e) => e.cells),
    ),
  ]);
  return page([
    generatedNotice(
      '`config/config.schema.json`, the profiles in `config/`, `kernel/config/process-variables.ts` and each enabled plugin’s manifest (`settings`)',
    ),
    '# Settings',
    [
      'A process starts from a profile file, `config/<profile>.json`; the environment overrides it; the',
      'result is checked against the schemas below, defaults filled in. An invalid setting stops the',
      'process with exit code 2 and one line naming it. How to run the product with them is in',
      '[operating](../guides/operating.md); the naming rule of plugin settings’ variables in',
      '[configuration](../guides/configuration.md).',
    ].join('\n'),
    '## Environment variables of the kernel',
    table(
      ['Variable', 'Sets', 'Meaning'],
      PROCESS_VARIABLES.map((v) => [code(v.name), code(v.setting), v.description]),
    ),
    '## Kernel settings',
    table(
      HEADERS,
      kernelSettings(sources.configSchema).map((e) => e.cells),
    ),
    '## What each profile sets',
    'Values the profile files set over the defaults above.',
    profilesTable(sources.profiles),
    '## Plugin settings',
    [
      'Under `settings.<plugin>` in a profile file, or from the environment as',
      '`RUNTIME_SETTINGS__<PLUGIN>__<KEY>[__<KEY>…]` (the value read as JSON when it parses as JSON).',
      'A plugin’s settings count only while the plugin is enabled.',
    ].join('\n'),
    ...plugins,
  ]);
}
