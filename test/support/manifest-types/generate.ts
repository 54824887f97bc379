import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { compileRoute } from '../../../kernel/manifest/compile.js';
import { PUBLIC, type JsonSchema, type Manifest } from '../../../kernel/manifest/types.js';
import { fromRoot } from '../../../kernel/paths.js';
import { typeOf } from './to-typescript.js';

export const GENERATE_COMMAND = 'npm run types:generate';

/** Where a plugin's generated module lives, relative to the project root. */
export function generatedPath(plugin: string): string {
  return `plugins/${plugin}/generated/manifest-types.ts`;
}

/** The built-in plugins that have a manifest, by id (the folder and the manifest share it). */
export function pluginsWithManifest(): string[] {
  return readdirSync(fromRoot('plugins'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .filter((entry) => existsSync(fromRoot('manifests', `${entry.name}.json`)))
    .map((entry) => entry.name)
    .sort();
}

const RESERVED = new Set(['Settings', 'Operations']);

function bodyType(manifest: Manifest, route: ReturnType<typeof compileRoute>): string {
  const declared = route.decl.body_type ?? (route.mutating && route.decl.body ? 'json' : 'none');
  const body = route.schemas.body;
  // Raw bytes arrive as a Buffer over HTTP but as whatever a dispatcher was given: the handler checks.
  if (!body || (declared !== 'json' && declared !== 'json-or-octet-stream')) return 'unknown';
  const json = typeOf(body, { defaults: true, indent: '    ' });
  if (json === 'unknown') throw new Error(`${manifest.id}: the body of ${route.decl.operation} reads as unknown`);
  return declared === 'json' ? json : `${json} | Buffer`;
}

function inputType(schema: JsonSchema | undefined): string {
  return schema ? typeOf(schema, { defaults: true, indent: '    ' }) : 'Record<string, never>';
}

/** The module generated from one manifest, before formatting. */
export function moduleSource(manifest: Manifest): string {
  const lines = [
    `// Generated from manifests/${manifest.id}.json by \`${GENERATE_COMMAND}\`; do not edit.`,
    '// test/kernel/manifest/generated-types.test.ts fails when it differs from what the manifest generates.',
    '// Input types read as the kernel leaves the input after validation: fields with a default are present.',
    '',
  ];
  if (manifest.settings)
    lines.push(
      `/** \`settings.${manifest.id}\`, as setup receives them: checked, defaults filled in. */`,
      `export type Settings = ${typeOf(manifest.settings)};`,
      '',
    );
  const named = manifest.schemas ?? {};
  for (const [name, schema] of Object.entries(named)) {
    if (RESERVED.has(name))
      throw new Error(`${manifest.id}: a schema may not be named ${name} (generated types use it)`);
    lines.push(`${docLine(schema)}export type ${name} = ${typeOf(schema)};`, '');
  }
  const operations = manifest.routes.map((decl) => {
    const route = compileRoute(manifest.id, decl, named);
    return [
      `  ${decl.operation}: {`,
      `    params: ${inputType(route.schemas.params)};`,
      `    query: ${inputType(route.schemas.query)};`,
      `    body: ${bodyType(manifest, route)};`,
      `    tenant: ${route.tenancy === 'tenant'};`,
      `    authenticated: ${decl.permission !== PUBLIC};`,
      '  };',
    ].join('\n');
  });
  lines.push(
    "/** Each operation's input by operationId, for `operationHandlers<Operations>` (kernel/plugin/api.ts). */",
    `export type Operations = {\n${operations.join('\n')}\n};`,
    '',
  );
  return lines.join('\n');
}

function docLine(schema: JsonSchema): string {
  const text = typeof schema.description === 'string' ? schema.description.replace(/\s+/g, ' ').trim() : '';
  return text ? `/** ${text.replace(/\*\//g, '*\\/')} */\n` : '';
}

/** Formats TypeScript as the project's Biome configuration does (the file Biome checks is the path given). */
export function formatted(source: string, path: string): string {
  const biome = createRequire(import.meta.url).resolve('@biomejs/biome/bin/biome');
  const run = spawnSync(process.execPath, [biome, 'format', `--stdin-file-path=${path}`], {
    input: source,
    cwd: fromRoot(),
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`biome could not format ${path}: ${run.stderr}`);
  return run.stdout;
}

/** Every plugin's generated module, formatted, by its path relative to the project root. */
export function generatedModules(): Map<string, string> {
  const modules = new Map<string, string>();
  for (const plugin of pluginsWithManifest()) {
    const manifest = JSON.parse(readFileSync(fromRoot('manifests', `${plugin}.json`), 'utf8')) as Manifest;
    const path = generatedPath(plugin);
    modules.set(path, formatted(moduleSource(manifest), path));
  }
  return modules;
}
