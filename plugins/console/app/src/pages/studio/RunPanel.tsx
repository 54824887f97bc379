import { useMutation } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { callOperation } from '../../api/call';
import type { components } from '../../api/schema';
import { ActionButton } from '../../kit/ActionButton';
import { ErrorBanner } from '../../kit/ErrorDisplay';
import { ShowAsCode } from '../../kit/ShowAsCode';
import type { CollabSession } from './collab';

type RunResult = components['schemas']['studio.RunResult'];

/** Runs the workspace's script (or an expression) in the sandbox and shows what came out. */
export function RunPanel({
  workspaceId,
  session,
  paths,
}: {
  workspaceId: string;
  session: CollabSession | null;
  paths: string[];
}) {
  const inputId = useId();
  const entryId = useId();
  const [entry, setEntry] = useState('main.js');
  const [input, setInput] = useState('{"a": 1}');
  let value: unknown;
  let problem: string | undefined;
  try {
    value = input.trim() ? JSON.parse(input) : null;
  } catch (err) {
    problem = `Not JSON: ${(err as Error).message}`;
  }
  const call = { op: 'runWorkspace' as const, params: { id: workspaceId }, body: { entry, input: { value } } };
  const run = useMutation({
    mutationFn: async () => {
      await session?.saveAndWait();
      return callOperation<RunResult>(call);
    },
  });
  const scripts = paths.filter((p) => /\.m?js$/.test(p) && !p.startsWith('tests/'));
  return (
    <section aria-label="Run">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (!problem) run.mutate();
        }}
      >
        <div className="field">
          <label htmlFor={entryId}>Entry file</label>
          <select id={entryId} value={entry} onChange={(e) => setEntry(e.target.value)}>
            {(scripts.length ? scripts : ['main.js']).map((p) => (
              <option key={p}>{p}</option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={inputId}>Input value (JSON)</label>
          <textarea
            id={inputId}
            className="code"
            rows={4}
            spellCheck={false}
            value={input}
            aria-invalid={Boolean(problem)}
            aria-describedby={`${inputId}-problem`}
            onChange={(e) => setInput(e.target.value)}
          />
          <span id={`${inputId}-problem`} className="field-error">
            {problem}
          </span>
        </div>
        <div className="toolbar">
          <ActionButton op="runWorkspace" type="submit" variant="primary" busy={run.isPending}>
            Save and run
          </ActionButton>
          <ShowAsCode call={call} />
        </div>
      </form>
      <ErrorBanner error={run.error} title="The run was not made" />
      {run.data ? (
        <div role="status" aria-label="Run result" className="card">
          <p>
            <strong>{run.data.ok ? 'Ran successfully' : 'The script failed'}</strong> in{' '}
            {Math.round(run.data.duration_ms)} ms (revision {run.data.revision}).
          </p>
          {run.data.error ? (
            <p className="field-error">
              {run.data.error.message}
              {run.data.error.line
                ? ` (line ${run.data.error.line}${run.data.error.file ? ` of ${run.data.error.file}` : ''})`
                : ''}
            </p>
          ) : null}
          <h3>Result</h3>
          <pre className="code wrap">{JSON.stringify(run.data.result, null, 2)}</pre>
          {run.data.pushed.length ? (
            <>
              <h3>Pushed</h3>
              <pre className="code wrap">{JSON.stringify(run.data.pushed, null, 2)}</pre>
            </>
          ) : null}
          {run.data.logs.length ? (
            <>
              <h3>Logs</h3>
              <pre className="code wrap">{run.data.logs.join('\n')}</pre>
            </>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}
