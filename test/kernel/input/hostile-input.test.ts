import { expect } from 'chai';
import { TEST_PROFILE_PLUGINS, startKernel, request, type TestKernel } from '../../support/kernel.js';
import { loginAdmin, mintToken } from '../../support/identity.js';

/**
 * Generated from /openapi.json, so every operation of every enabled plugin — the third-party
 * fixture's included, and every route later issues add — is covered without listing it here:
 * hostile strings, nesting, dates and numbers go into each field of each part, and the answer
 * must never be a 5xx, and each mutating call must leave exactly one audit record.
 */

type Schema = Record<string, any>;
type Part = 'path' | 'query' | 'body';

interface Operation {
  operationId: string;
  method: string;
  path: string;
  parameters: Array<{ name: string; in: string; required?: boolean; schema: Schema }>;
  body?: Schema;
  bodyType?: string;
}

interface Hostile {
  name: string;
  /** The value as JSON text (raw, so values JSON.stringify cannot write — 1e400 — can be sent). */
  json: string;
  /** The value in a URL (path segment or query value), already percent-encoded. */
  url?: string;
}

const DEEP = 5000;
const STRINGS: Hostile[] = [
  { name: 'NUL', json: JSON.stringify('a\u0000b'), url: 'a%00b' },
  { name: 'lone surrogate', json: '"a\\ud800b"', url: 'a%ED%A0%80b' },
  { name: '64 KiB string', json: JSON.stringify('x'.repeat(65536)), url: 'x'.repeat(65536) },
  { name: '8 KiB string', json: JSON.stringify('y'.repeat(8192)), url: 'y'.repeat(8192) },
  { name: `nesting ${DEEP} deep`, json: `${'['.repeat(DEEP)}${']'.repeat(DEEP)}` },
];
const DATES: Hostile[] = [
  { name: 'year 0000', json: '"0000-01-01T00:00:00Z"', url: '0000-01-01T00%3A00%3A00Z' },
  { name: 'leap second', json: '"2016-12-31T23:59:60Z"', url: '2016-12-31T23%3A59%3A60Z' },
  { name: 'month 13', json: '"2024-13-01T00:00:00Z"', url: '2024-13-01T00%3A00%3A00Z' },
];
const NUMBERS: Hostile[] = [
  { name: '1e308', json: '1e308', url: '1e308' },
  { name: '-1e308', json: '-1e308', url: '-1e308' },
  { name: '1e400 (Infinity once parsed)', json: '1e400', url: '1e400' },
  { name: '2^63', json: '9223372036854775808', url: '9223372036854775808' },
  { name: '-2^63-1', json: '-9223372036854775809', url: '-9223372036854775809' },
];

function typesOf(schema: Schema): string[] {
  return Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
}

function hostileFor(schema: Schema): Hostile[] {
  const types = typesOf(schema);
  const out: Hostile[] = [];
  if (types.includes('string'))
    out.push(...(schema.format === 'date-time' ? [...DATES, ...STRINGS.slice(0, 2)] : STRINGS));
  if (types.includes('integer') || types.includes('number')) out.push(...NUMBERS);
  // Open values (no type: anything goes) still may not hold what PostgreSQL cannot store.
  if (types.length === 0 && schema.$ref === undefined && !schema.oneOf && !schema.anyOf) out.push(...STRINGS);
  return out;
}

/** A plausible value for a schema, so that the hostile field is not the only thing wrong. */
function sample(schema: Schema, resolve: (s: Schema) => Schema, depth = 0): unknown {
  const s = resolve(schema);
  if (depth > 6) return null;
  if (s.const !== undefined) return s.const;
  if (Array.isArray(s.enum)) return s.enum[0];
  const variant = s.oneOf?.[0] ?? s.anyOf?.[0];
  if (variant) return sample(variant, resolve, depth + 1);
  const type = typesOf(s)[0];
  switch (type) {
    case 'string':
      if (s.format === 'date-time') return '2024-01-01T00:00:00Z';
      if (s.format === 'email') return 'someone@example.com';
      if (s.format === 'uri') return 'https://example.com/x';
      return 'abc1'.padEnd(Math.max(4, s.minLength ?? 0), 'a');
    case 'integer':
    case 'number':
      return s.minimum ?? 1;
    case 'boolean':
      return false;
    case 'array':
      return Array.from({ length: s.minItems ?? 0 }, () => sample(s.items ?? {}, resolve, depth + 1));
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const name of s.required ?? []) out[name] = sample(s.properties?.[name] ?? {}, resolve, depth + 1);
      return out;
    }
    default:
      return null;
  }
}

function operationsOf(doc: Schema): Operation[] {
  const ops: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths as Record<string, Schema>)) {
    for (const [method, op] of Object.entries(item)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      const content = op.requestBody?.content ?? {};
      const bodyType = Object.keys(content)[0];
      ops.push({
        operationId: op.operationId,
        method: method.toUpperCase(),
        path,
        parameters: [...(item.parameters ?? []), ...(op.parameters ?? [])],
        ...(bodyType ? { bodyType, body: content[bodyType].schema } : {}),
      });
    }
  }
  return ops;
}

/** One request per (operation, field, hostile value). */
interface Case {
  op: Operation;
  part: Part;
  field: string;
  value: Hostile;
}

describe('hostile input, generated from /openapi.json for every operation', function () {
  this.timeout(600_000);
  let k: TestKernel;
  let token: string;
  let doc: Schema;

  before(async () => {
    k = await startKernel({
      plugins: [...TEST_PROFILE_PLUGINS, { module: 'test/fixtures/third-party-plugin' }],
      // Public routes record their refusals in the account trail; this test counts every one.
      account_trail: { per_second: 1_000_000, burst: 1_000_000 },
    });
    const session = await loginAdmin(k);
    // An API token, so no generated call (a logout, say) can end the credential the test uses.
    token = await mintToken(k, session, ['admin', 'account-admin']);
    doc = (await k.request('GET', '/openapi.json', { token })).body;
  });
  after(() => k.close());

  function resolver(): (s: Schema) => Schema {
    return (s) => {
      let current = s;
      for (let i = 0; i < 10 && typeof current?.$ref === 'string'; i++) {
        const name = current.$ref.replace('#/components/schemas/', '');
        current = {
          ...doc.components.schemas[name],
          ...Object.fromEntries(Object.entries(current).filter(([key]) => key !== '$ref')),
        };
      }
      return current ?? {};
    };
  }

  function casesOf(op: Operation): Case[] {
    const resolve = resolver();
    const cases: Case[] = [];
    for (const p of op.parameters) {
      if (p.in !== 'path' && p.in !== 'query') continue;
      for (const value of hostileFor(resolve(p.schema ?? {}))) {
        if (value.url === undefined) continue;
        cases.push({ op, part: p.in as Part, field: p.name, value });
      }
    }
    if (op.body && op.bodyType === 'application/json') {
      const body = resolve(op.body);
      for (const [field, schema] of Object.entries((body.properties ?? {}) as Record<string, Schema>)) {
        for (const value of hostileFor(resolve(schema))) cases.push({ op, part: 'body', field, value });
      }
    }
    return cases;
  }

  async function send(c: Case, requestId: string): Promise<{ status: number; text: string }> {
    const resolve = resolver();
    const pathParams = Object.fromEntries(c.op.parameters.filter((p) => p.in === 'path').map((p) => [p.name, 'abc1']));
    const query = new URLSearchParams();
    for (const p of c.op.parameters)
      if (p.in === 'query' && p.required) query.set(p.name, String(sample(p.schema ?? {}, resolve)));
    let url = c.op.path.replace(/\{([^}]+)\}/g, (_, name: string) =>
      c.part === 'path' && name === c.field ? (c.value.url as string) : encodeURIComponent(pathParams[name] ?? 'abc1'),
    );
    let qs = query.toString();
    if (c.part === 'query') qs = `${qs ? `${qs}&` : ''}${encodeURIComponent(c.field)}=${c.value.url as string}`;
    if (qs) url += `?${qs}`;
    const headers: Record<string, string> = { authorization: `Bearer ${token}`, 'x-request-id': requestId };
    let raw: string | undefined;
    if (c.op.body && c.op.bodyType === 'application/json') {
      const base = sample(c.op.body, resolve);
      const fields = Object.entries(typeof base === 'object' && base !== null ? base : {}).filter(
        ([name]) => name !== c.field,
      );
      const parts = fields.map(([name, v]) => `${JSON.stringify(name)}:${JSON.stringify(v)}`);
      if (c.part === 'body') parts.push(`${JSON.stringify(c.field)}:${c.value.json}`);
      raw = `{${parts.join(',')}}`;
      headers['content-type'] = 'application/json';
    }
    const res = await request(k.url, c.op.method, url, { headers, ...(raw !== undefined ? { raw } : {}) });
    return { status: res.status, text: res.text.slice(0, 300) };
  }

  it('never answers 5xx, and leaves exactly one audit record per mutating call', async () => {
    const ops = operationsOf(doc);
    const operationIds = ops.map((o) => o.operationId);
    // The fixture plugin's routes are part of the generated surface.
    expect(operationIds).to.include.members(['listNotes', 'createNote', 'createComponent', 'login']);
    const problems: string[] = [];
    /** Audited calls, their audit records counted once all are sent. */
    const audited: Array<{ label: string; requestId: string; status: number }> = [];
    let sent = 0;
    // Four operations at a time (each one's cases in turn): the server must hold up under
    // concurrent hostile calls as well, and the suite's slowest test takes a quarter of the time.
    const waiting = [...ops];
    const sendAll = async (): Promise<void> => {
      for (let op = waiting.shift(); op; op = waiting.shift()) {
        const route = k.kernel.catalog.byOperation(op.operationId);
        const isAudited = route?.mutating && route.auditClass !== 'none';
        for (const c of casesOf(op)) {
          const requestId = `hostile-${sent++}`;
          const res = await send(c, requestId);
          const label = `${op.method} ${op.path} ${c.part} ${c.field} = ${c.value.name}`;
          // 501 not_configured is no crash: a route that declares it answers so for a capability
          // this deployment lacks (the SQL console on the embedded database).
          const declaredNotConfigured =
            res.status === 501 && route?.decl.errors?.includes(501) === true && res.text.includes('"not_configured"');
          if (res.status >= 500 && !declaredNotConfigured) problems.push(`${label}: ${res.status} ${res.text}`);
          // 431: a request line over the head limit is refused by the HTTP layer before it is a
          // call of any route, so there is no call to record.
          if (isAudited && res.status !== 431) audited.push({ label, requestId, status: res.status });
        }
      }
    };
    await Promise.all([sendAll(), sendAll(), sendAll(), sendAll()]);
    const counts = new Map(
      (
        (await k.kernel.database
          .knex('audit_records')
          .where('request_id', 'like', 'hostile-%')
          .groupBy('request_id')
          .select('request_id')
          .count<{ request_id: string; count: string | number }[]>('* as count')) as Array<{
          request_id: string;
          count: string | number;
        }>
      ).map((row) => [row.request_id, Number(row.count)]),
    );
    for (const call of audited) {
      const count = counts.get(call.requestId) ?? 0;
      if (count !== 1) problems.push(`${call.label}: ${count} audit records (status ${call.status})`);
    }
    expect(sent).to.be.greaterThan(200);
    expect(problems, problems.join('\n')).to.deep.equal([]);
  });

  it('refuses NUL, lone surrogates, deep nesting and unstorable dates with 400 validation_error naming the field', async () => {
    const nul = await k.request('POST', '/auth/login', {
      raw: '{"tenant_id":"default","username":"ad\\u0000min","password":"x"}',
    });
    expect(nul.status).to.equal(400);
    expect(nul.body.error).to.include({ code: 'validation_error', status: 400 });
    expect(nul.body.error.details[0]).to.include({ in: 'body', pointer: '/username' });

    const surrogate = await k.request('POST', '/components', {
      token,
      raw: '{"type":"passthrough","name":"a\\udc00"}',
    });
    expect(surrogate.status).to.equal(400);
    expect(surrogate.body.error.details[0]).to.include({ in: 'body', pointer: '/name' });

    const deep = await k.request('POST', '/components', {
      token,
      raw: `{"name":"deep","config":{"a":${'['.repeat(DEEP)}${']'.repeat(DEEP)}}}`,
    });
    expect(deep.status).to.equal(400);
    expect(deep.body.error.details[0].message).to.contain('nested deeper than 64');
    expect(deep.body.error.details[0].pointer).to.match(/^\/config\/a(\/0)+$/);

    const leap = await k.request('GET', '/audit?since=2016-12-31T23%3A59%3A60Z', { token });
    expect(leap.status).to.equal(400);
    expect(leap.body.error.details[0]).to.include({ in: 'query', pointer: '/since' });
    const yearZero = await k.request('GET', '/logs?until=0000-01-01T00%3A00%3A00Z', { token });
    expect(yearZero.status).to.equal(400);
    expect(yearZero.body.error.details[0]).to.include({ in: 'query', pointer: '/until' });

    const nulPath = await k.request('GET', '/components/a%00b', { token });
    expect(nulPath.status).to.equal(400);
    expect(nulPath.body.error.details[0]).to.include({ in: 'params', pointer: '/id' });
  });

  it('records a refused hostile write with what could be stored, and says the input was sanitized', async () => {
    const res = await k.request('POST', '/components', {
      token,
      headers: { 'x-request-id': 'hostile-recorded' },
      raw: '{"type":"passthrough","name":"bad\\u0000name","description":"x"}',
    });
    expect(res.status).to.equal(400);
    const [row] = await k.kernel.database.knex('audit_records').where({ request_id: 'hostile-recorded' });
    expect(row).to.include({ outcome: 'refused', status: 400, error_code: 'validation_error', tenant_id: 'default' });
    expect(row.fields.name).to.equal('bad\ufffdname');
    expect(row.detail).to.include({ input_sanitized: true });
  });
});
