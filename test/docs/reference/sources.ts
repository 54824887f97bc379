import { readFileSync } from 'node:fs';
import { ERROR_CATALOGUE } from '../../../kernel/errors.js';
import { fromRoot } from '../../../kernel/paths.js';
import { loginAdmin } from '../../support/identity.js';
import { startKernel, type TestKernel } from '../../support/kernel.js';
import { isSchema, type Schema } from './schema-rows.js';

/** What the reference is generated from, read from a started kernel with every built-in plugin. */
export interface ReferenceSources {
  /** `GET /openapi.json`. */
  readonly openapi: Schema;
  /** Each declared permission: its plugin and description. */
  readonly permissions: ReadonlyArray<{ name: string; plugin: string; description: string }>;
  /** The built-in roles of `GET /roles`. */
  readonly roles: ReadonlyArray<{ id: string; description: string; permissions: readonly string[] }>;
  /** The kernel's catalogue, then each plugin's declared codes. */
  readonly errors: ReadonlyArray<{ code: string; status: number; meaning: string; declaredBy: string }>;
  /** config/config.schema.json. */
  readonly configSchema: Schema;
  /** config/<profile>.json by profile. */
  readonly profiles: Readonly<Record<string, Schema>>;
  /** Each enabled plugin's settings schema (its manifest's `settings`), by plugin id. */
  readonly pluginSettings: ReadonlyArray<{ plugin: string; schema: Schema }>;
  /** `GET /component-types`. */
  readonly componentTypes: ReadonlyArray<{
    name: string;
    kind: string;
    plugin: string;
    summary: string;
    config_schema: Schema;
  }>;
}

function readJson(...path: string[]): Schema {
  const value: unknown = JSON.parse(readFileSync(fromRoot(...path), 'utf8'));
  if (!isSchema(value)) throw new Error(`${path.join('/')} is not a JSON object`);
  return value;
}

function itemsOf(body: unknown): Schema[] {
  return isSchema(body) && Array.isArray(body.items) ? body.items.filter(isSchema) : [];
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** Boots a test-profile kernel (every built-in plugin, so every contribution is included) and reads the sources from it. */
export async function referenceSources(): Promise<ReferenceSources> {
  const kernel = await startKernel();
  try {
    return await readReferenceSources(kernel);
  } finally {
    await kernel.close();
  }
}

/**
 * The sources, read from a started kernel's own answers as the bootstrap admin. Nothing read here
 * depends on the database the kernel runs on: pages list schemas and their defaults, never a
 * value of the running deployment.
 */
export async function readReferenceSources(kernel: TestKernel): Promise<ReferenceSources> {
  const token = await loginAdmin(kernel);
  const get = async (path: string): Promise<unknown> => {
    const res = await kernel.request('GET', path, { token });
    if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}: ${res.text}`);
    return res.body;
  };
  const openapi = await get('/openapi.json');
  if (!isSchema(openapi)) throw new Error('/openapi.json is not a JSON object');
  const { catalog } = kernel.kernel;
  const manifests = [...catalog.manifests].sort((a, b) => a.id.localeCompare(b.id));
  return {
    openapi,
    permissions: [...catalog.permissions.entries()]
      .map(([name, { plugin, description }]) => ({ name, plugin, description }))
      .sort((a, b) => a.name.localeCompare(b.name)),
    roles: itemsOf(await get('/roles?limit=500'))
      .filter((role) => role.built_in === true)
      .map((role) => ({
        id: text(role.id),
        description: text(role.description),
        permissions: Array.isArray(role.permissions) ? role.permissions.map(String) : [],
      })),
    errors: [
      ...Object.entries(ERROR_CATALOGUE).map(([code, { status, message }]) => ({
        code,
        status,
        meaning: message,
        declaredBy: 'kernel',
      })),
      ...manifests.flatMap((m) =>
        (m.error_codes ?? []).map((e) => ({
          code: e.code,
          status: e.status,
          meaning: e.description,
          declaredBy: m.id,
        })),
      ),
    ],
    configSchema: readJson('config', 'config.schema.json'),
    profiles: Object.fromEntries(
      ['local', 'production', 'test'].map((profile) => [profile, readJson('config', `${profile}.json`)]),
    ),
    pluginSettings: manifests.flatMap((m) => (isSchema(m.settings) ? [{ plugin: m.id, schema: m.settings }] : [])),
    componentTypes: itemsOf(await get('/component-types?limit=500')).map((type) => ({
      name: text(type.name),
      kind: text(type.kind),
      plugin: text(type.plugin),
      summary: text(type.summary),
      config_schema: isSchema(type.config_schema) ? type.config_schema : {},
    })),
  };
}
