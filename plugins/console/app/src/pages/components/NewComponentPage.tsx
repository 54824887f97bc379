import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { callOperation } from '../../api/call';
import { ActionButton } from '../../kit/ActionButton';
import { ErrorBanner } from '../../kit/ErrorDisplay';
import { Field, TextField } from '../../kit/Field';
import { JsonSchemaForm } from '../../kit/JsonSchemaForm';
import { ShowAsCode } from '../../kit/ShowAsCode';
import { newComponentRoute } from './routes';
import { schemaOf, useComponentTypes } from './types';

/** Creates a component: its type chosen first, then a form generated from the type's config schema. */
export function NewComponentPage() {
  const search = newComponentRoute.useSearch();
  const navigate = newComponentRoute.useNavigate();
  const queryClient = useQueryClient();
  const types = useComponentTypes();
  const [name, setName] = useState('');
  const [stream, setStream] = useState('');
  const [tags, setTags] = useState('');
  const [config, setConfig] = useState<Record<string, unknown>>({});
  const type = types.data?.items.find((t) => t.name === search.type);
  const body = {
    name,
    type: search.type ?? '',
    config,
    ...(stream ? { stream } : {}),
    ...(tags.trim()
      ? {
          tags: tags
            .split(',')
            .map((t) => t.trim())
            .filter(Boolean),
        }
      : {}),
  };
  const create = useMutation({
    mutationFn: () => callOperation<{ id: string }>({ op: 'createComponent', body }),
    onSuccess: async (created) => {
      await queryClient.invalidateQueries({ queryKey: ['components'] });
      await navigate({ to: '/components/$componentId', params: { componentId: created.id } });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  return (
    <div className="page">
      <h1>New component</h1>
      <form onSubmit={submit} aria-label="New component">
        <Field label="Type" pointer="/type" error={create.error} required hint={type?.summary}>
          {(input) => (
            <select
              {...input}
              value={search.type ?? ''}
              onChange={(e) => {
                setConfig({});
                void navigate({ search: { type: e.target.value || undefined }, replace: true });
              }}
            >
              <option value="">(choose a type)</option>
              {(['source', 'processor', 'sink'] as const).map((kind) => (
                <optgroup key={kind} label={`${kind}s`}>
                  {types.data?.items
                    .filter((t) => t.kind === kind)
                    .map((t) => (
                      <option key={t.name} value={t.name}>
                        {t.name}
                      </option>
                    ))}
                </optgroup>
              ))}
            </select>
          )}
        </Field>
        <TextField label="Name" pointer="/name" error={create.error} value={name} onChange={setName} required />
        {type?.kind === 'source' ? (
          <TextField
            label="Stream"
            pointer="/stream"
            error={create.error}
            value={stream}
            onChange={setStream}
            hint="The stream this source appends to."
          />
        ) : null}
        <TextField
          label="Tags"
          pointer="/tags"
          error={create.error}
          value={tags}
          onChange={setTags}
          hint="Comma-separated."
        />
        {type ? (
          <fieldset>
            <legend>{type.name} settings</legend>
            <JsonSchemaForm
              schema={schemaOf(type)}
              value={config}
              onChange={setConfig}
              pointer="/config"
              error={create.error}
            />
          </fieldset>
        ) : null}
        <ErrorBanner error={create.error} />
        <ActionButton op="createComponent" type="submit" variant="primary" busy={create.isPending}>
          Create component
        </ActionButton>
        <ShowAsCode call={{ op: 'createComponent', body }} />
      </form>
    </div>
  );
}
