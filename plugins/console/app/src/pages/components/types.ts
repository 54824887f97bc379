import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import type { components } from '../../api/schema';
import type { JsonSchema } from '../../kit/JsonSchemaForm';

export type Component = components['schemas']['components.Component'];
export type ComponentType = components['schemas']['components.ComponentType'];

/** Every component type the enabled plugins contribute, with its config JSON Schema. */
export function useComponentTypes() {
  return useQuery({
    queryKey: ['component-types'],
    queryFn: () => unwrap(api.GET('/component-types')),
    staleTime: 5 * 60_000,
  });
}

export function schemaOf(type: ComponentType | undefined): JsonSchema {
  return (type?.config_schema ?? {}) as JsonSchema;
}
