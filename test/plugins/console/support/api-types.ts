import { readFileSync } from 'node:fs';
import { generateTypes } from 'openapi-typescript-ts5';
import { fromRoot } from '../../../../kernel/paths.js';
import { startKernel } from '../../../support/kernel.js';
import { loginAdmin } from '../../../support/identity.js';

/** The console's typed-client files, relative to the project root. */
export const CLIENT_FILES = {
  schema: 'plugins/console/app/src/api/schema.d.ts',
  operations: 'plugins/console/app/src/api/operations.ts',
} as const;

type Document = { paths: Record<string, Record<string, unknown>> };

interface OperationEntry {
  method: string;
  path: string;
  permission: string;
  read_only: boolean;
  dry_run: boolean;
}

/**
 * The operation table the console derives its per-caller controls, curl lines and MCP tool calls
 * from: one entry per operationId (the MCP tool has the same name).
 */
function operationsTable(document: Document): string {
  const table: Record<string, OperationEntry> = {};
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, raw] of Object.entries(item)) {
      const op = raw as {
        operationId?: string;
        'x-permission'?: string;
        'x-read-only'?: boolean;
        parameters?: Array<{ name?: string; in?: string }>;
      };
      if (!op || typeof op !== 'object' || !op.operationId) continue;
      table[op.operationId] = {
        method: method.toUpperCase(),
        path,
        permission: op['x-permission'] ?? 'authenticated',
        read_only: op['x-read-only'] ?? method === 'get',
        dry_run: (op.parameters ?? []).some((p) => p.name === 'dry_run' && p.in === 'query'),
      };
    }
  }
  const sorted = Object.fromEntries(Object.entries(table).sort(([a], [b]) => a.localeCompare(b)));
  return [
    "// Generated from the running server's /openapi.json by `npm run console:types`; do not edit.",
    "// test/plugins/console/api-types.test.ts fails when this file differs from a fresh server's document.",
    '',
    `export const operations = ${JSON.stringify(sorted, null, 2)} as const;`,
    '',
    'export type OperationId = keyof typeof operations;',
    '',
  ].join('\n');
}

/** Both generated files for a document. */
export async function clientFiles(document: Document): Promise<Record<keyof typeof CLIENT_FILES, string>> {
  return {
    schema: await generateTypes(document as unknown as Record<string, unknown>),
    operations: operationsTable(document),
  };
}

/** Boots a test-profile kernel (every plugin) and reads its document as the bootstrap admin. */
export async function serverDocument(): Promise<Document> {
  const kernel = await startKernel();
  try {
    const token = await loginAdmin(kernel);
    const res = await kernel.request('GET', '/openapi.json', { token });
    if (res.status !== 200) throw new Error(`/openapi.json answered ${res.status}`);
    return res.body as Document;
  } finally {
    await kernel.close();
  }
}

export function committedFile(relative: string): string {
  try {
    return readFileSync(fromRoot(relative), 'utf8');
  } catch {
    return '';
  }
}
