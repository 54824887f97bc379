/** What a dry run reported (`would` of the answer): the status and body the call would answer; nothing was kept. */
export function DryRunWould({ would }: { would: { status: number; body?: unknown } }) {
  return (
    <section aria-label="Dry run" className="dry-run">
      <p>
        Dry run (nothing was kept): the server would answer <strong>{would.status}</strong>
        {would.status >= 400 ? ', so this action would fail.' : '.'}
      </p>
      {would.body !== undefined && (
        <pre tabIndex={0} className="dry-run-body">
          {JSON.stringify(would.body, null, 2)}
        </pre>
      )}
    </section>
  );
}
