import { useMutation } from '@tanstack/react-query';
import { callOperation } from '../../api/call';
import type { components } from '../../api/schema';
import { ActionButton } from '../../kit/ActionButton';
import { ErrorBanner } from '../../kit/ErrorDisplay';
import { ShowAsCode } from '../../kit/ShowAsCode';
import type { CollabSession } from './collab';

type TestReport = components['schemas']['studio.TestReport'];

/** Runs the workspace's tests and shows the report. */
export function TestsPanel({ workspaceId, session }: { workspaceId: string; session: CollabSession | null }) {
  const call = { op: 'testWorkspace' as const, params: { id: workspaceId }, body: {} };
  const test = useMutation({
    mutationFn: async () => {
      await session?.saveAndWait();
      return callOperation<TestReport>(call);
    },
  });
  const report = test.data;
  return (
    <section aria-label="Tests">
      <div className="toolbar">
        <ActionButton op="testWorkspace" variant="primary" busy={test.isPending} onPress={() => test.mutate()}>
          Save and run tests
        </ActionButton>
        <ShowAsCode call={call} />
      </div>
      <ErrorBanner error={test.error} title="The tests did not run" />
      {report ? (
        <>
          <p role="status">
            {report.passed} passed, {report.failed} failed (revision {report.revision}).
          </p>
          <div className="table-scroll">
            <table>
              <caption className="visually-hidden">Test cases</caption>
              <thead>
                <tr>
                  <th scope="col">Case</th>
                  <th scope="col">Outcome</th>
                  <th scope="col">Expected</th>
                  <th scope="col">Actual</th>
                </tr>
              </thead>
              <tbody>
                {report.cases.map((c) => (
                  <tr key={c.name}>
                    <td>{c.name}</td>
                    <td>
                      <span className={`badge badge-${c.ok ? 'success' : 'failed'}`}>{c.ok ? 'passed' : 'failed'}</span>
                      {c.error ? <span className="field-error"> {c.error.message}</span> : null}
                    </td>
                    <td>
                      <code>{JSON.stringify(c.expected)}</code>
                    </td>
                    <td>
                      <code>{JSON.stringify(c.actual)}</code>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      ) : null}
    </section>
  );
}
