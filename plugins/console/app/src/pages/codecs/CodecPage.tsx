import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { api, unwrap } from '../../api/client';
import { callOperation, dryRun } from '../../api/call';
import { isApiError } from '../../api/errors';
import { ActionButton } from '../../kit/ActionButton';
import { ConfirmAction } from '../../kit/ConfirmAction';
import { ErrorBanner } from '../../kit/ErrorDisplay';
import { Field } from '../../kit/Field';
import { Time } from '../../kit/format';
import { HistoryTab } from '../../kit/HistoryTab';
import { ShowAsCode } from '../../kit/ShowAsCode';
import { hexDump } from '../../kit/bytes';
import { decodeBytes, encodeValue, parseHex } from './bytes-api';
import { codecRoute } from './routes';
import type { components } from '../../api/schema';

type Codec = components['schemas']['codecs.Codec'];

interface Verdict {
  compatible: boolean;
  status: number;
  problems: string[];
}

/** Edits the schema; "Check compatibility" runs the PUT as a dry run and shows the verdict before saving. */
function SchemaEditor({ codec }: { codec: Codec }) {
  const [text, setText] = useState(
    codec.schema === null || codec.schema === undefined ? '' : JSON.stringify(codec.schema, null, 2),
  );
  const [verdict, setVerdict] = useState<Verdict | null>(null);
  const queryClient = useQueryClient();
  let schema: unknown;
  let bad = false;
  try {
    schema = text.trim() === '' ? null : JSON.parse(text);
  } catch {
    bad = true;
  }
  const body = { name: codec.name, kind: codec.kind, schema };
  // A dry run answers as the real call would: 200 with the report when compatible, the refusal
  // itself (422 incompatible_schema, its problems in details) when not.
  const check = useMutation({
    mutationFn: async (): Promise<Verdict> => {
      try {
        const report = await dryRun({ op: 'replaceCodec', params: { id: codec.id }, body });
        return { compatible: report.would.status < 400, status: report.would.status, problems: [] };
      } catch (err) {
        if (!isApiError(err) || err.status !== 422) throw err;
        return {
          compatible: false,
          status: err.status,
          problems: [err.message, ...err.details.map((d) => `${d.pointer}: ${d.message}`)],
        };
      }
    },
    onSuccess: setVerdict,
  });
  const save = useMutation({
    mutationFn: (force: boolean) =>
      callOperation({ op: 'replaceCodec', params: { id: codec.id }, query: force ? { force: true } : {}, body }),
    onSuccess: async () => {
      setVerdict(null);
      await queryClient.invalidateQueries({ queryKey: ['codecs'] });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!bad) check.mutate();
  };
  return (
    <form onSubmit={submit} aria-label="Schema" className="card">
      <Field label="Schema (JSON)" pointer="/schema" error={save.error ?? check.error}>
        {(input) => (
          <textarea
            {...input}
            rows={12}
            className="code"
            spellCheck={false}
            value={text}
            onChange={(e) => {
              setText(e.target.value);
              setVerdict(null);
            }}
          />
        )}
      </Field>
      {bad ? <p className="field-error">Not valid JSON yet.</p> : null}
      <ActionButton op="replaceCodec" type="submit" busy={check.isPending}>
        Check compatibility
      </ActionButton>
      <ErrorBanner error={check.error ?? save.error} />
      {verdict ? (
        <div role="status" className={verdict.compatible ? 'card' : 'error-banner'}>
          {verdict.compatible ? (
            <p>
              Compatible: messages written with earlier revisions still decode. Saving makes revision{' '}
              {codec.revision + 1}.
            </p>
          ) : (
            <>
              <p>Incompatible ({verdict.status}):</p>
              <ul>
                {verdict.problems.map((p) => (
                  <li key={p}>{p}</li>
                ))}
              </ul>
            </>
          )}
          <ActionButton
            op="replaceCodec"
            variant={verdict.compatible ? 'primary' : 'danger'}
            busy={save.isPending}
            onPress={() => save.mutate(!verdict.compatible)}
          >
            {verdict.compatible ? 'Save schema' : 'Save anyway (force)'}
          </ActionButton>
        </div>
      ) : null}
      {save.isSuccess ? <p role="status">Saved.</p> : null}
      <ShowAsCode call={{ op: 'replaceCodec', params: { id: codec.id }, body }} />
    </form>
  );
}

/** Encode a JSON value into bytes, or decode hex bytes into a value, with this codec. */
function Playground({ codecId }: { codecId: string }) {
  const [valueText, setValueText] = useState('{}');
  const [hexText, setHexText] = useState('');
  const encode = useMutation({ mutationFn: () => encodeValue(codecId, JSON.parse(valueText)) });
  const decode = useMutation({
    mutationFn: () => {
      const bytes = parseHex(hexText);
      if (!bytes) throw new Error('Type the bytes as hex pairs, e.g. 7b 7d.');
      return decodeBytes(codecId, bytes);
    },
  });
  return (
    <div className="code-pair">
      <section aria-label="Encode" className="card">
        <h3>Encode</h3>
        <div className="field">
          <label htmlFor="encode-value">Value (JSON)</label>
          <textarea
            id="encode-value"
            rows={6}
            className="code"
            spellCheck={false}
            value={valueText}
            onChange={(e) => setValueText(e.target.value)}
          />
        </div>
        <ActionButton op="encodeWithCodec" busy={encode.isPending} onPress={() => encode.mutate()}>
          Encode
        </ActionButton>
        <ErrorBanner error={encode.error} />
        {encode.data ? (
          <>
            <pre tabIndex={0} role="region" aria-label="Encoded bytes">
              {hexDump(encode.data)}
            </pre>
            <button
              type="button"
              className="btn btn-secondary"
              onClick={() => setHexText(Array.from(encode.data, (b) => b.toString(16).padStart(2, '0')).join(' '))}
            >
              Use these bytes to decode
            </button>
          </>
        ) : null}
      </section>
      <section aria-label="Decode" className="card">
        <h3>Decode</h3>
        <div className="field">
          <label htmlFor="decode-hex">Bytes (hex)</label>
          <textarea
            id="decode-hex"
            rows={6}
            className="code"
            spellCheck={false}
            value={hexText}
            onChange={(e) => setHexText(e.target.value)}
          />
        </div>
        <ActionButton op="decodeWithCodec" busy={decode.isPending} onPress={() => decode.mutate()}>
          Decode
        </ActionButton>
        <ErrorBanner error={decode.error} />
        {decode.isSuccess ? (
          <pre tabIndex={0} role="region" aria-label="Decoded value">
            {JSON.stringify(decode.data, null, 2)}
          </pre>
        ) : null}
      </section>
    </div>
  );
}

export function CodecPage() {
  const { codecId } = codecRoute.useParams();
  const navigate = useNavigate();
  const codec = useQuery({
    queryKey: ['codecs', codecId],
    queryFn: () => unwrap(api.GET('/codecs/{id}', { params: { path: { id: codecId } } })),
  });
  const revisions = useQuery({
    queryKey: ['codecs', codecId, 'revisions'],
    queryFn: () => unwrap(api.GET('/codecs/{id}/revisions', { params: { path: { id: codecId } } })),
  });
  const c = codec.data;
  return (
    <div className="page">
      <p>
        <Link to="/codecs" search={{}}>
          Codecs
        </Link>{' '}
        /
      </p>
      <div className="page-header">
        <h1>{c?.name ?? codecId}</h1>
        {c ? (
          <ConfirmAction
            call={{ op: 'deleteCodec', params: { id: codecId } }}
            label="Delete codec"
            variant="danger"
            description={`Deletes ${c.name}.`}
            invalidate={[['codecs']]}
            onDone={() => void navigate({ to: '/codecs', search: {} })}
          />
        ) : null}
      </div>
      <ErrorBanner error={codec.error} />
      {c ? (
        <>
          <p className="muted">
            Kind {c.kind}, revision {c.revision}, updated <Time value={c.updated_at} />
          </p>
          <h2>Schema</h2>
          <SchemaEditor key={c.revision} codec={c} />
          <h2>Playground</h2>
          <Playground codecId={codecId} />
          <h2>Revisions</h2>
          <ol className="timeline">
            {revisions.data?.items.map((r) => (
              <li key={r.revision}>
                Revision {r.revision} by {r.changed_by ?? 'unknown'}, <Time value={r.created_at} />
                {r.forced_problems && (r.forced_problems as unknown[]).length
                  ? ` (forced past ${(r.forced_problems as unknown[]).length} problems)`
                  : ''}
              </li>
            ))}
          </ol>
          <h2>History</h2>
          <HistoryTab resource={codecId} />
        </>
      ) : null}
    </div>
  );
}
