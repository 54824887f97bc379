import '../pages.css';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useId, useState } from 'react';
import { callOperation } from '../../api/call';
import { api, unwrap, unwrapPage } from '../../api/client';
import type { components } from '../../api/schema';
import { useAllowed, useMe } from '../../auth/session';
import { ActionButton } from '../../kit/ActionButton';
import { ConfirmAction } from '../../kit/ConfirmAction';
import { ErrorBanner, FieldErrors } from '../../kit/ErrorDisplay';
import { Time } from '../../kit/format';
import { ShowAsCode } from '../../kit/ShowAsCode';
import { promotionRoute } from './routes';

type Bundle = components['schemas']['migration.Bundle'];
type Plan = components['schemas']['migration.Plan'];

const KINDS = ['codecs', 'streams', 'components', 'workflows', 'workspaces'] as const;

/** Step 1: export this tenant's resources as a bundle (or paste one exported elsewhere). */
function ExportStep({ bundle, onBundle }: { bundle: Bundle | null; onBundle: (bundle: Bundle | null) => void }) {
  const [include, setInclude] = useState<string[]>([...KINDS]);
  const [pasted, setPasted] = useState('');
  const [pasteProblem, setPasteProblem] = useState<string | null>(null);
  const pasteId = useId();
  const body = include.length === KINDS.length ? {} : { include };
  const exported = useMutation({
    mutationFn: () => callOperation<Bundle>({ op: 'exportBundle', body }),
    onSuccess: onBundle,
  });
  const counts = bundle
    ? Object.entries(bundle.resources as Record<string, unknown[]>).map(([kind, items]) => `${items.length} ${kind}`)
    : [];
  return (
    <section className="card" aria-labelledby="export-title">
      <h2 id="export-title">1. Export</h2>
      <fieldset className="field">
        <legend>Resource kinds</legend>
        {KINDS.map((k) => (
          <label key={k} className="checkbox">
            <input
              type="checkbox"
              checked={include.includes(k)}
              onChange={(e) => setInclude(e.target.checked ? [...include, k] : include.filter((x) => x !== k))}
            />{' '}
            {k}
          </label>
        ))}
        <FieldErrors error={exported.error} pointer="/include" />
      </fieldset>
      <ErrorBanner error={exported.error} title="The export failed" />
      <div className="toolbar">
        <ActionButton op="exportBundle" variant="primary" busy={exported.isPending} onPress={() => exported.mutate()}>
          Export bundle
        </ActionButton>
        <ShowAsCode call={{ op: 'exportBundle', body }} />
      </div>
      <div className="field">
        <label htmlFor={pasteId}>Or paste a bundle exported elsewhere (JSON)</label>
        <textarea
          id={pasteId}
          className="code"
          rows={3}
          value={pasted}
          spellCheck={false}
          aria-describedby={`${pasteId}-problem`}
          onChange={(e) => setPasted(e.target.value)}
        />
        <span id={`${pasteId}-problem`} className="field-error">
          {pasteProblem}
        </span>
        <button
          type="button"
          className="btn btn-secondary"
          onClick={() => {
            try {
              onBundle(JSON.parse(pasted) as Bundle);
              setPasteProblem(null);
            } catch (err) {
              setPasteProblem(`Not JSON: ${(err as Error).message}`);
            }
          }}
        >
          Use pasted bundle
        </button>
      </div>
      {bundle ? (
        <p role="status">
          Bundle from tenant <code>{bundle.source_tenant_id}</code>, {counts.join(', ')}; hash{' '}
          <code>{bundle.hash}</code>.
        </p>
      ) : null}
    </section>
  );
}

/** Step 2: plan the bundle against a target tenant: the diff and the gate's checks. */
function PlanStep({ bundle }: { bundle: Bundle }) {
  const me = useMe();
  const navigate = useNavigate({ from: promotionRoute.fullPath });
  const targetId = useId();
  const tenants = useQuery({
    queryKey: ['identity', 'tenants'],
    queryFn: () => unwrapPage(api.GET('/tenants', { params: { query: { limit: 200 } } })),
    enabled: Boolean(me?.account_admin),
  });
  const [target, setTarget] = useState(me?.tenant_id ?? '');
  const body = { bundle, target_tenant_id: target };
  const plan = useMutation({
    mutationFn: () => callOperation<Plan>({ op: 'createPlan', body }),
    onSuccess: (created) => navigate({ search: { plan: created.id } }),
  });
  return (
    <section className="card" aria-labelledby="plan-title">
      <h2 id="plan-title">2. Plan</h2>
      <div className="field">
        <label htmlFor={targetId}>Target tenant</label>
        {me?.account_admin && tenants.data ? (
          <select
            id={targetId}
            value={target}
            onChange={(e) => setTarget(e.target.value)}
            aria-describedby={`${targetId}-error`}
          >
            {tenants.data.items.map((t) => (
              <option key={t.id} value={t.id}>
                {t.name} ({t.id})
              </option>
            ))}
          </select>
        ) : (
          <input
            id={targetId}
            value={target}
            onChange={(e) => setTarget(e.target.value)}
            aria-describedby={`${targetId}-error`}
          />
        )}
        <FieldErrors error={plan.error} pointer="/target_tenant_id" id={`${targetId}-error`} />
      </div>
      <ErrorBanner error={plan.error} title="The plan was not made" />
      <div className="toolbar">
        <ActionButton op="createPlan" variant="primary" busy={plan.isPending} onPress={() => plan.mutate()}>
          Plan promotion
        </ActionButton>
        <ShowAsCode call={{ op: 'createPlan', body: { ...body, bundle: '…' } }} />
      </div>
    </section>
  );
}

function DiffList({
  title,
  kind,
  changes,
}: {
  title: string;
  kind: 'add' | 'change' | 'del';
  changes: Array<{ kind: string; id: string }>;
}) {
  return (
    <div>
      <h3>
        {title} ({changes.length})
      </h3>
      {changes.length ? (
        <ul aria-label={title} className={`diff-list diff-${kind}`}>
          {changes.map((c) => (
            <li key={`${c.kind}/${c.id}`}>
              <span aria-hidden="true">{kind === 'add' ? '+ ' : kind === 'del' ? '− ' : '~ '}</span>
              {c.kind} <code>{c.id}</code>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">None.</p>
      )}
    </div>
  );
}

/** Step 3: the plan (diff and gate), and its application after the server's dry run. */
function PlanView({ planId }: { planId: string }) {
  const [allowDestructive, setAllowDestructive] = useState(false);
  const [applied, setApplied] = useState<unknown>(null);
  const destructiveId = useId();
  const plan = useQuery({
    queryKey: ['migration', 'plan', planId],
    queryFn: () => unwrap(api.GET('/migration/plans/{id}', { params: { path: { id: planId } } })),
  });
  const p = plan.data;
  const gateOk = p?.gate.every((g) => g.ok);
  return (
    <section className="card" aria-labelledby="apply-title">
      <h2 id="apply-title">3. Review and apply</h2>
      <ErrorBanner error={plan.error} />
      {p ? (
        <>
          <p>
            Plan <code>{p.id}</code> into tenant <code>{p.target_tenant_id}</code>, made <Time value={p.created_at} />
            {p.applied_at ? (
              <>
                , applied <Time value={p.applied_at} />
              </>
            ) : null}
            .
          </p>
          <h3>Diff</h3>
          <div className="diff-columns">
            <DiffList title="Created" kind="add" changes={p.diff.create} />
            <DiffList title="Updated" kind="change" changes={p.diff.update} />
            <DiffList title="Deleted" kind="del" changes={p.diff.delete} />
          </div>
          <h3>Gate {gateOk ? '(every check passes)' : '(a check fails: apply is refused)'}</h3>
          <table>
            <caption className="visually-hidden">Gate checks</caption>
            <thead>
              <tr>
                <th scope="col">Check</th>
                <th scope="col">Result</th>
                <th scope="col">Detail</th>
              </tr>
            </thead>
            <tbody>
              {p.gate.map((g) => (
                <tr key={g.check}>
                  <td>
                    <code>{g.check}</code>
                  </td>
                  <td>
                    <span className={`badge badge-${g.ok ? 'success' : 'failed'}`}>{g.ok ? 'passes' : 'fails'}</span>
                  </td>
                  <td>{g.detail}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {p.diff.delete.length ? (
            <div className="field">
              <label htmlFor={destructiveId}>
                <input
                  id={destructiveId}
                  type="checkbox"
                  checked={allowDestructive}
                  onChange={(e) => setAllowDestructive(e.target.checked)}
                />{' '}
                Allow deleting what the target has and the bundle lacks
              </label>
            </div>
          ) : null}
          {p.applied_at ? null : (
            <ConfirmAction
              call={{
                op: 'applyPlan',
                params: { id: p.id },
                body: { request_id: p.id, ...(allowDestructive ? { allow_destructive: true } : {}) },
              }}
              label="Apply plan"
              variant="primary"
              description={`The diff is written into tenant ${p.target_tenant_id}; the gate runs again inside the same transaction.`}
              invalidate={[['migration']]}
              onDone={setApplied}
            />
          )}
          {applied ? (
            <p role="status">
              Applied: <code>{JSON.stringify((applied as { applied?: unknown }).applied)}</code>
            </p>
          ) : null}
        </>
      ) : null}
    </section>
  );
}

export function PromotionPage() {
  const { plan } = promotionRoute.useSearch();
  const [bundle, setBundle] = useState<Bundle | null>(null);
  const canRead = useAllowed('exportBundle');
  return (
    <div className="page">
      <header className="page-header">
        <h1>Promotion</h1>
      </header>
      <p className="muted">
        Move resources from one tenant (or environment) to another: export a bundle, plan it against the target (what
        would change, and the gate's checks), then apply.
        {canRead.allowed ? '' : ` Exporting needs ${canRead.permission}.`}
      </p>
      <ExportStep bundle={bundle} onBundle={setBundle} />
      {bundle ? <PlanStep bundle={bundle} /> : null}
      {plan ? <PlanView planId={plan} /> : null}
    </div>
  );
}
