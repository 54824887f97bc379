import { startKernel, type TestKernel } from '../../support/kernel.js';
import { loginAdmin } from '../../support/identity.js';

/** The third-party fixture plugin, enabled by folder as an operator would. */
export const FIXTURE = { module: 'test/fixtures/third-party-plugin' };

/** Every built-in plugin of the test profile plus the fixture, so plugin routes are documented too. */
export const ALL_PLUGINS = ['system', 'identity', 'audit', 'logs', 'components', 'codecs', 'agent', FIXTURE];

export type OpenApiDocument = {
  paths: Record<string, Record<string, any>>;
  components: { schemas: Record<string, unknown>; responses: Record<string, any> };
  [key: string]: unknown;
};

export interface Served {
  tk: TestKernel;
  /** Access token of the bootstrap admin (every permission, every tenant). */
  admin: string;
  doc: OpenApiDocument;
}

/** A kernel with real credentials serving every plugin, and the document it serves. */
export async function serveEverything(): Promise<Served> {
  const tk = await startKernel({ plugins: ALL_PLUGINS });
  try {
    const admin = await loginAdmin(tk);
    const res = await tk.request('GET', '/openapi.json', { token: admin });
    if (res.status !== 200) throw new Error(`GET /openapi.json answered ${res.status}`);
    return { tk, admin, doc: res.body as OpenApiDocument };
  } catch (err) {
    await tk.close();
    throw err;
  }
}

export const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** Every operation of the document with its method and path template. */
export function operationsOf(doc: OpenApiDocument): Array<{ method: string; path: string; op: any }> {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => (METHODS as readonly string[]).includes(method))
      .map(([method, op]) => ({ method: method.toUpperCase(), path, op })),
  );
}
