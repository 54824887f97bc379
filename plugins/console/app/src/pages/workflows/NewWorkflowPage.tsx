import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { callOperation } from '../../api/call';
import { ActionButton } from '../../kit/ActionButton';
import { ErrorBanner } from '../../kit/ErrorDisplay';
import { ShowAsCode } from '../../kit/ShowAsCode';
import { emptyDraft, toDefinition } from './types';
import { WorkflowEditor } from './WorkflowEditor';

export function NewWorkflowPage() {
  const [draft, setDraft] = useState(emptyDraft);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const body = toDefinition(draft);
  const create = useMutation({
    mutationFn: () => callOperation<{ id: string }>({ op: 'createWorkflow', body }),
    onSuccess: async (workflow) => {
      await queryClient.invalidateQueries({ queryKey: ['workflows'] });
      await navigate({ to: '/workflows/$workflowId', params: { workflowId: workflow.id }, search: {} });
    },
  });
  return (
    <div className="page">
      <h1>New workflow</h1>
      <WorkflowEditor
        label="New workflow"
        draft={draft}
        onChange={setDraft}
        onSubmit={() => create.mutate()}
        error={create.error}
        actions={
          <>
            <ErrorBanner error={create.error} />
            <ActionButton op="createWorkflow" type="submit" variant="primary" busy={create.isPending}>
              Create workflow
            </ActionButton>
            <ShowAsCode call={{ op: 'createWorkflow', body }} />
          </>
        }
      />
    </div>
  );
}
