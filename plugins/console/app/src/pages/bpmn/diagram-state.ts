import type { components } from '../../api/schema';

type Instance = components['schemas']['bpmn.Instance'];

/** Which elements of an instance's diagram to mark, from its history, where it waits and its incidents. */
export interface DiagramMarks {
  completed: string[];
  active: string[];
  incident: string[];
}

export function marksOf(instance: Instance): DiagramMarks {
  const incident = (instance.incidents ?? [])
    .filter((i) => (i as { state?: string }).state !== 'resolved')
    .map((i) => (i as { activity_id?: string }).activity_id)
    .filter((id): id is string => Boolean(id));
  const active = (instance.activities ?? [])
    .map((a) => (a as { activity_id?: string }).activity_id)
    .filter((id): id is string => Boolean(id) && !incident.includes(id as string));
  const completed = [
    ...new Set(
      (instance.history ?? [])
        .filter((h) => h.outcome === 'completed' && h.activity_id)
        .map((h) => h.activity_id as string),
    ),
  ].filter((id) => !active.includes(id) && !incident.includes(id));
  return { completed, active, incident };
}
