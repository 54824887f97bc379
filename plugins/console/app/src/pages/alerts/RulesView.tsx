import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useId, useState } from 'react';
import { callOperation } from '../../api/call';
import { api, unwrapPage } from '../../api/client';
import type { components } from '../../api/schema';
import { ActionButton } from '../../kit/ActionButton';
import { ConfirmAction } from '../../kit/ConfirmAction';
import { ErrorBanner, FieldErrors } from '../../kit/ErrorDisplay';
import { TextField } from '../../kit/Field';
import { StateBadge, Time } from '../../kit/format';
import { PagedTable } from '../../kit/PagedTable';
import { ShowAsCode } from '../../kit/ShowAsCode';
import { alertsRoute } from './routes';

import { labelsText } from './labels';

type Rule = components['schemas']['alerts.Rule'];
type Search = ReturnType<typeof alertsRoute.useSearch>;

/** The alert rules: the list, and the form that adds one. */
const OPS = ['>', '>=', '<', '<=', '==', '!='] as const;
const SEVERITIES = ['info', 'warning', 'critical'] as const;

function RuleForm() {
  const signals = useQuery({ queryKey: ['alerts', 'signals'], queryFn: () => unwrapPage(api.GET('/alert-signals')) });
  const ids = { signal: useId(), op: useId(), severity: useId(), selector: useId() };
  const [name, setName] = useState('');
  const [signal, setSignal] = useState('');
  const [op, setOp] = useState<(typeof OPS)[number]>('>');
  const [threshold, setThreshold] = useState('0');
  const [forSeconds, setForSeconds] = useState('0');
  const [severity, setSeverity] = useState<(typeof SEVERITIES)[number]>('warning');
  const [selectorKey, setSelectorKey] = useState('');
  const [selectorValue, setSelectorValue] = useState('');
  const queryClient = useQueryClient();
  const chosen = signals.data?.items.find((s) => s.name === (signal || signals.data?.items[0]?.name));
  const selectorKeys = Object.keys((chosen as { selector?: Record<string, string> } | undefined)?.selector ?? {});
  const body = {
    name,
    signal: chosen?.name ?? signal,
    op,
    threshold: Number(threshold),
    for_seconds: Number(forSeconds),
    severity,
    ...(selectorKey && selectorValue ? { selector: { [selectorKey]: selectorValue } } : {}),
  };
  const create = useMutation({
    mutationFn: () => callOperation({ op: 'createAlertRule', body }),
    onSuccess: () => {
      setName('');
      return queryClient.invalidateQueries({ queryKey: ['alerts'] });
    },
  });
  return (
    <form
      className="card"
      aria-label="New alert rule"
      onSubmit={(e) => {
        e.preventDefault();
        create.mutate();
      }}
    >
      <h2>New rule</h2>
      <TextField label="Name" pointer="/name" required value={name} onChange={setName} error={create.error} />
      <div className="field">
        <label htmlFor={ids.signal}>Signal</label>
        <select
          id={ids.signal}
          value={chosen?.name ?? ''}
          onChange={(e) => setSignal(e.target.value)}
          aria-describedby={`${ids.signal}-hint`}
        >
          {signals.data?.items.map((s) => (
            <option key={s.name}>{s.name}</option>
          ))}
        </select>
        <span id={`${ids.signal}-hint`} className="hint">
          {(chosen as { description?: string } | undefined)?.description}
        </span>
        <FieldErrors error={create.error} pointer="/signal" />
      </div>
      {selectorKeys.length ? (
        <div className="field">
          <label htmlFor={ids.selector}>Only series where</label>
          <select id={ids.selector} value={selectorKey} onChange={(e) => setSelectorKey(e.target.value)}>
            <option value="">(every series)</option>
            {selectorKeys.map((k) => (
              <option key={k}>{k}</option>
            ))}
          </select>
          {selectorKey ? (
            <TextField
              label={`${selectorKey} is`}
              pointer={`/selector/${selectorKey}`}
              value={selectorValue}
              onChange={setSelectorValue}
              error={create.error}
            />
          ) : null}
        </div>
      ) : null}
      <div className="field">
        <label htmlFor={ids.op}>Fires when the value is</label>
        <select id={ids.op} value={op} onChange={(e) => setOp(e.target.value as (typeof OPS)[number])}>
          {OPS.map((o) => (
            <option key={o}>{o}</option>
          ))}
        </select>
      </div>
      <TextField
        label="Threshold"
        pointer="/threshold"
        type="number"
        required
        value={threshold}
        onChange={setThreshold}
        error={create.error}
      />
      <TextField
        label="For (seconds)"
        pointer="/for_seconds"
        type="number"
        value={forSeconds}
        onChange={setForSeconds}
        error={create.error}
        hint="How long the condition must hold before the alert fires."
      />
      <div className="field">
        <label htmlFor={ids.severity}>Severity</label>
        <select
          id={ids.severity}
          value={severity}
          onChange={(e) => setSeverity(e.target.value as (typeof SEVERITIES)[number])}
        >
          {SEVERITIES.map((s) => (
            <option key={s}>{s}</option>
          ))}
        </select>
      </div>
      <ErrorBanner error={create.error ?? signals.error} title="The rule was not created" />
      <div className="toolbar">
        <ActionButton op="createAlertRule" type="submit" variant="primary" busy={create.isPending}>
          Create rule
        </ActionButton>
        <ShowAsCode call={{ op: 'createAlertRule', body }} />
      </div>
    </form>
  );
}

export function RulesView({ search }: { search: Search }) {
  const navigate = useNavigate({ from: alertsRoute.fullPath });
  const list = useQuery({
    queryKey: ['alerts', 'rules', search.cursor],
    queryFn: () => unwrapPage(api.GET('/alerts/rules', { params: { query: { cursor: search.cursor, limit: 50 } } })),
  });
  return (
    <>
      <PagedTable<Rule>
        caption="Alert rules"
        rowKey={(r) => r.id}
        page={list.data}
        loading={list.isPending}
        error={list.error}
        cursor={search.cursor}
        onPage={(cursor) => navigate({ search: (s) => ({ ...s, cursor }) })}
        empty="No rules yet."
        columns={[
          {
            header: 'Rule',
            cell: (r) => (
              <Link to="." search={{ view: 'alerts', rule: r.id }}>
                {r.name}
              </Link>
            ),
          },
          {
            header: 'Condition',
            cell: (r) => (
              <code>{`${r.signal}${Object.keys(r.selector).length ? `{${labelsText(r.selector)}}` : ''} ${r.op} ${r.threshold}`}</code>
            ),
          },
          { header: 'For', cell: (r) => `${r.for_seconds} s`, numeric: true },
          { header: 'Severity', cell: (r) => <StateBadge state={r.severity} /> },
          { header: 'Updated', cell: (r) => <Time value={r.updated_at} /> },
          {
            header: 'Action',
            cell: (r) => (
              <ConfirmAction
                call={{ op: 'deleteAlertRule', params: { id: r.id } }}
                label={`Delete ${r.name}`}
                variant="danger"
                description="The rule and its alerts are deleted; nothing more is notified for it."
                invalidate={[['alerts']]}
              />
            ),
          },
        ]}
      />
      <RuleForm />
    </>
  );
}
