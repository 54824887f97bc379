import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { Dialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { callOperation, dryRun, supportsDryRun } from '../api/call';
import { ActionButton } from './ActionButton';
import { DryRunWould } from './DryRunWould';
import type { ActionCall } from './curl';
import { ErrorBanner } from './ErrorDisplay';
import { ShowAsCode } from './ShowAsCode';

interface Props {
  call: ActionCall;
  /** Button text, and the dialog's title. */
  label: string;
  /** What the action does, in a sentence the user confirms. */
  description: ReactNode;
  variant?: 'primary' | 'secondary' | 'danger';
  /** Query keys to refetch once the action succeeded. */
  invalidate?: unknown[][];
  onDone?: (result: unknown) => void;
}

/** The dry run's report, shown before the user confirms: the status and body the call would answer. */
function DryRunView({ call }: { call: ActionCall }) {
  const report = useQuery({
    queryKey: ['dry-run', call],
    queryFn: () => dryRun(call),
    retry: false,
    staleTime: 0,
    gcTime: 0,
  });
  if (report.isPending) return <p role="status">Asking the server what this would do…</p>;
  if (report.error) return <ErrorBanner error={report.error} title="The dry run refused this action" />;
  return <DryRunWould would={report.data.would} />;
}

/**
 * A button for a destructive or consequential action: it opens a dialog that first shows the
 * server's dry run (when the operation has one), the curl / MCP equivalent, then asks to confirm.
 */
export function ConfirmAction({ call, label, description, variant = 'secondary', invalidate = [], onDone }: Props) {
  const [open, setOpen] = useState(false);
  const queryClient = useQueryClient();
  const run = useMutation({
    mutationFn: () => callOperation(call),
    onSuccess: async (result) => {
      setOpen(false);
      await Promise.all(invalidate.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
      onDone?.(result);
    },
  });
  return (
    <>
      <ActionButton
        op={call.op}
        variant={variant}
        onPress={() => {
          run.reset();
          setOpen(true);
        }}
      >
        {label}
      </ActionButton>
      <ModalOverlay isOpen={open} onOpenChange={setOpen} isDismissable className="modal-overlay">
        <Modal className="modal">
          <Dialog className="dialog">
            <Heading slot="title">{label}</Heading>
            <p>{description}</p>
            {open && supportsDryRun(call) ? <DryRunView call={call} /> : null}
            <ShowAsCode call={call} />
            <ErrorBanner error={run.error} />
            <div className="dialog-actions">
              <button type="button" className="btn btn-secondary" onClick={() => setOpen(false)}>
                Cancel
              </button>
              <button
                type="button"
                className={`btn btn-${variant === 'danger' ? 'danger' : 'primary'}`}
                onClick={() => run.mutate()}
                aria-disabled={run.isPending || undefined}
              >
                {run.isPending ? 'Working…' : `Confirm: ${label}`}
              </button>
            </div>
          </Dialog>
        </Modal>
      </ModalOverlay>
    </>
  );
}
