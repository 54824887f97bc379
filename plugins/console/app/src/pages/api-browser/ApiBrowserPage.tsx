import '../pages.css';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useId } from 'react';
import { api, unwrap } from '../../api/client';
import { holds, useMe } from '../../auth/session';
import { ErrorBanner } from '../../kit/ErrorDisplay';
import { apiBrowserRoute } from './routes';

interface Operation {
  operationId: string;
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: Array<{ name: string; in: string; required?: boolean; description?: string; schema?: unknown }>;
  requestBody?: { content?: Record<string, { schema?: unknown }> };
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: unknown }> }>;
  'x-permission'?: string;
  'x-read-only'?: boolean;
  'x-idempotency'?: string;
  'x-websocket'?: unknown;
}

interface Document {
  info: { title: string; version: string };
  tags?: Array<{ name: string; description?: string }>;
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, unknown> };
}

interface Entry {
  method: string;
  path: string;
  op: Operation;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

function entries(doc: Document): Entry[] {
  const out: Entry[] = [];
  for (const [path, item] of Object.entries(doc.paths))
    for (const method of METHODS) {
      const op = item[method];
      if (op) out.push({ method: method.toUpperCase(), path, op });
    }
  return out;
}

/** The names of the component schemas a schema refers to (directly). */
function refsOf(schema: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(schema)) for (const item of schema) refsOf(item, found);
  else if (schema && typeof schema === 'object')
    for (const [key, value] of Object.entries(schema)) {
      if (key === '$ref' && typeof value === 'string') found.add(value.replace('#/components/schemas/', ''));
      else refsOf(value, found);
    }
  return found;
}

function SchemaView({ schema, doc, title }: { schema: unknown; doc: Document; title: string }) {
  const refs = [...refsOf(schema)];
  return (
    <div>
      <h4>{title}</h4>
      <pre className="code wrap">{JSON.stringify(schema, null, 2)}</pre>
      {refs.map((name) => (
        <details key={name}>
          <summary>
            Schema <code>{name}</code>
          </summary>
          <pre className="code wrap">{JSON.stringify(doc.components?.schemas?.[name], null, 2)}</pre>
        </details>
      ))}
    </div>
  );
}

function OperationView({ entry, doc }: { entry: Entry; doc: Document }) {
  const me = useMe();
  const { op } = entry;
  const permission = op['x-permission'] ?? 'authenticated';
  const body = op.requestBody?.content ? Object.entries(op.requestBody.content)[0] : undefined;
  return (
    <article className="card" aria-labelledby="op-title">
      <h2 id="op-title">
        <code>
          {entry.method} {entry.path}
        </code>
      </h2>
      <p>{op.summary}</p>
      <dl className="kv">
        <dt>Operation (MCP tool)</dt>
        <dd>
          <code>{op.operationId}</code>
        </dd>
        <dt>Permission</dt>
        <dd>
          <code>{permission}</code> {holds(me, permission) ? '(you hold it)' : '(you do not hold it)'}
        </dd>
        <dt>Read-only</dt>
        <dd>{op['x-read-only'] ? 'yes' : 'no'}</dd>
        {op['x-idempotency'] ? (
          <>
            <dt>Idempotency</dt>
            <dd>{op['x-idempotency']}</dd>
          </>
        ) : null}
      </dl>
      {op.parameters?.length ? (
        <>
          <h3>Parameters</h3>
          <table>
            <caption className="visually-hidden">Parameters</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">In</th>
                <th scope="col">Required</th>
                <th scope="col">Description</th>
              </tr>
            </thead>
            <tbody>
              {op.parameters.map((p) => (
                <tr key={`${p.in}:${p.name}`}>
                  <td>
                    <code>{p.name}</code>
                  </td>
                  <td>{p.in}</td>
                  <td>{p.required ? 'yes' : 'no'}</td>
                  <td>{p.description ?? ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      ) : null}
      {body ? (
        <>
          <h3>Request body ({body[0]})</h3>
          <SchemaView schema={body[1].schema} doc={doc} title="Schema" />
        </>
      ) : null}
      <h3>Responses</h3>
      {Object.entries(op.responses ?? {}).map(([status, response]) => {
        const content = response.content ? Object.entries(response.content)[0] : undefined;
        return (
          <details key={status}>
            <summary>
              <strong>{status}</strong> {response.description}
            </summary>
            {content?.[1].schema ? <SchemaView schema={content[1].schema} doc={doc} title={content[0]} /> : null}
          </details>
        );
      })}
    </article>
  );
}

export function ApiBrowserPage() {
  const search = apiBrowserRoute.useSearch();
  const navigate = useNavigate({ from: apiBrowserRoute.fullPath });
  const filterId = useId();
  const doc = useQuery({
    queryKey: ['openapi'],
    queryFn: () => unwrap(api.GET('/openapi.json')) as Promise<unknown> as Promise<Document>,
    staleTime: Number.POSITIVE_INFINITY,
  });
  const all = doc.data ? entries(doc.data) : [];
  const q = search.q?.toLowerCase();
  const shown = all.filter(
    (e) =>
      (!search.tag || e.op.tags?.includes(search.tag)) &&
      (!q ||
        e.path.toLowerCase().includes(q) ||
        e.op.operationId.toLowerCase().includes(q) ||
        e.op.summary?.toLowerCase().includes(q)),
  );
  const selected = all.find((e) => e.op.operationId === search.op);
  return (
    <div className="page">
      <header className="page-header">
        <h1>API</h1>
        {doc.data ? (
          <span className="muted">
            {doc.data.info.title} {doc.data.info.version}, {all.length} operations
          </span>
        ) : null}
      </header>
      <ErrorBanner error={doc.error} />
      <nav className="tabs" aria-label="API tags">
        <Link
          to="."
          search={(s: typeof search) => ({ ...s, tag: undefined })}
          aria-current={!search.tag ? 'page' : undefined}
        >
          All
        </Link>
        {doc.data?.tags?.map((t) => (
          <Link
            key={t.name}
            to="."
            search={(s: typeof search) => ({ ...s, tag: t.name })}
            aria-current={search.tag === t.name ? 'page' : undefined}
            title={t.description}
          >
            {t.name}
          </Link>
        ))}
      </nav>
      <div className="field">
        <label htmlFor={filterId}>Find an operation</label>
        <input
          id={filterId}
          type="search"
          defaultValue={search.q ?? ''}
          onChange={(e) => navigate({ search: (s) => ({ ...s, q: e.target.value || undefined }), replace: true })}
        />
      </div>
      {selected && doc.data ? <OperationView entry={selected} doc={doc.data} /> : null}
      <ul className="operation-list" aria-label="Operations">
        {shown.map((e) => (
          <li key={e.op.operationId}>
            <Link
              to="."
              search={(s: typeof search) => ({ ...s, op: e.op.operationId })}
              aria-current={search.op === e.op.operationId ? 'true' : undefined}
            >
              <code>
                {e.method} {e.path}
              </code>
            </Link>{' '}
            {e.op.summary} <span className="muted">({e.op['x-permission'] ?? 'authenticated'})</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
