import { ApiError } from '../../kernel/errors.js';
import { canonicalJson } from '../../kernel/plugin/api.js';
import type { Sandbox, SandboxError, SandboxInput, SandboxResult } from '../../sandbox/types.js';
import type { FileMap } from './files.js';

/** A run's input as the API takes it (RUNTIME.md): at most one of value, body_text, body_base64. */
export interface RunInput {
  value?: unknown;
  body_text?: string;
  body_base64?: string;
  headers?: Record<string, string>;
  key?: string | null;
}

export interface RunReport {
  ok: boolean;
  result: unknown;
  pushed: unknown[];
  logs: string[];
  duration_ms: number;
  error?: SandboxError;
}

export interface TestCaseReport {
  name: string;
  ok: boolean;
  expected: unknown;
  actual: unknown;
  error?: SandboxError;
  logs?: string[];
  duration_ms?: number;
}

export interface TestReport {
  passed: number;
  failed: number;
  cases: TestCaseReport[];
}

export const DEFAULT_ENTRY = 'main.js';

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Why an input cannot be given to a script (the caller turns it into a 400 or a failed case). */
export class InputProblem extends Error {
  constructor(
    readonly pointer: string,
    message: string,
  ) {
    super(message);
  }
}

/** The script's `input` from the API's shape: value becomes its JSON text, body_base64 bytes. */
export function sandboxInput(input: RunInput | undefined): SandboxInput {
  const given = input ?? {};
  const bodies = (['value', 'body_text', 'body_base64'] as const).filter((field) => given[field] !== undefined);
  if (bodies.length > 1)
    throw new InputProblem('/input', `give at most one of value, body_text, body_base64 (got ${bodies.join(', ')})`);
  let body: SandboxInput['body'] = null;
  if (given.value !== undefined) body = JSON.stringify(given.value);
  else if (given.body_text !== undefined) body = given.body_text;
  else if (given.body_base64 !== undefined) {
    if (!BASE64.test(given.body_base64))
      throw new InputProblem('/input/body_base64', 'is not base64 (RFC 4648, padded)');
    body = new Uint8Array(Buffer.from(given.body_base64, 'base64'));
  }
  const headers: Record<string, string> = {};
  if (given.headers && typeof given.headers === 'object') {
    for (const [name, value] of Object.entries(given.headers)) {
      if (typeof value !== 'string') throw new InputProblem(`/input/headers/${name}`, 'is not a string');
      headers[name.toLowerCase()] = value;
    }
  }
  const key = given.key ?? null;
  if (key !== null && typeof key !== 'string') throw new InputProblem('/input/key', 'is not a string or null');
  return { body, headers, key };
}

/** The entry to run: the one asked for (default main.js), which must be a file of the workspace. */
export function entryOf(files: FileMap, asked: string | undefined): string {
  const entry = asked ?? DEFAULT_ENTRY;
  if (!Object.hasOwn(files, entry)) throw new InputProblem('/entry', `"${entry}" is not a file of the workspace`);
  return entry;
}

export function report(result: SandboxResult): RunReport {
  const out: RunReport = {
    ok: result.ok,
    result: result.result ?? null,
    pushed: result.pushed,
    logs: result.logs,
    duration_ms: result.duration_ms,
  };
  if (result.error) out.error = result.error;
  return out;
}

function badRequest(problem: InputProblem): ApiError {
  return new ApiError('validation_error', `The run cannot start: ${problem.pointer} ${problem.message}.`, {
    details: [{ in: 'body', pointer: problem.pointer, message: problem.message }],
  });
}

/** Runs a workspace's entry with an input; a bad entry or input is a 400, anything the script does is a 200. */
export async function runWorkspace(
  sandbox: Sandbox,
  tenantId: string,
  files: FileMap,
  request: { entry?: string; input?: RunInput },
): Promise<RunReport> {
  let entry: string;
  let input: SandboxInput;
  try {
    entry = entryOf(files, request.entry);
    input = sandboxInput(request.input);
  } catch (err) {
    if (err instanceof InputProblem) throw badRequest(err);
    throw err;
  }
  return report(await sandbox.run({ tenantId, files, entry, input }));
}

const CASE_FILE = /^tests\/([^/]+)\.json$/;

function same(a: unknown, b: unknown): boolean {
  return canonicalJson(a ?? null) === canonicalJson(b ?? null);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** One case file: parsed, run, compared. Never throws for what the file or script holds. */
async function runCase(
  sandbox: Sandbox,
  tenantId: string,
  files: FileMap,
  name: string,
  text: string,
  defaultEntry: string | undefined,
): Promise<TestCaseReport> {
  let spec: unknown;
  try {
    spec = JSON.parse(text);
  } catch (err) {
    return {
      name,
      ok: false,
      expected: null,
      actual: null,
      error: { message: `tests/${name}.json is not JSON: ${(err as Error).message}`, file: `tests/${name}.json` },
    };
  }
  if (!isObject(spec) || !isObject(spec.expect)) {
    return {
      name,
      ok: false,
      expected: null,
      actual: null,
      error: { message: `tests/${name}.json must be {input, expect: {result?, pushed?}}`, file: `tests/${name}.json` },
    };
  }
  const expected = spec.expect;
  let entry: string;
  let input: SandboxInput;
  try {
    entry = entryOf(files, typeof spec.entry === 'string' ? spec.entry : defaultEntry);
    input = sandboxInput(isObject(spec.input) ? (spec.input as RunInput) : undefined);
  } catch (err) {
    if (!(err instanceof InputProblem)) throw err;
    return {
      name,
      ok: false,
      expected,
      actual: null,
      error: { message: `tests/${name}.json: ${err.pointer} ${err.message}`, file: `tests/${name}.json` },
    };
  }
  const run = report(await sandbox.run({ tenantId, files, entry, input }));
  const actual = { result: run.result, pushed: run.pushed };
  const matches =
    (!('result' in expected) || same(expected.result, run.result)) &&
    (!('pushed' in expected) || same(expected.pushed, run.pushed));
  const out: TestCaseReport = {
    name,
    ok: run.ok && matches,
    expected,
    actual,
    logs: run.logs,
    duration_ms: run.duration_ms,
  };
  if (run.error) out.error = run.error;
  return out;
}

/** Every tests/*.json case, in name order, a few at a time; at most `maxCases` run, the rest fail as not run. */
export async function testWorkspace(
  sandbox: Sandbox,
  tenantId: string,
  files: FileMap,
  options: { entry?: string; maxCases: number },
): Promise<TestReport> {
  const caseFiles = Object.keys(files)
    .map((path) => [path, CASE_FILE.exec(path)?.[1]] as const)
    .filter((pair): pair is readonly [string, string] => pair[1] !== undefined)
    .sort((a, b) => (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
  const cases: TestCaseReport[] = new Array(caseFiles.length);
  const CONCURRENCY = 4;
  let next = 0;
  async function worker(): Promise<void> {
    for (;;) {
      const i = next++;
      if (i >= caseFiles.length) return;
      const [path, name] = caseFiles[i] as readonly [string, string];
      cases[i] =
        i < options.maxCases
          ? await runCase(sandbox, tenantId, files, name, files[path] as string, options.entry)
          : {
              name,
              ok: false,
              expected: null,
              actual: null,
              error: { message: `not run: a test run executes at most ${options.maxCases} cases` },
            };
    }
  }
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, caseFiles.length) }, worker));
  const passed = cases.filter((c) => c.ok).length;
  return { passed, failed: cases.length - passed, cases };
}
