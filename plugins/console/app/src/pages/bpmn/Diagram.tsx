import { lazy, Suspense } from 'react';
import type { DiagramMarks } from './diagram-state';

const BpmnDiagram = lazy(() => import('./BpmnDiagram'));

/** The diagram, its chunk (bpmn-js) loaded only when a page shows one. */
export function Diagram(props: { xml: string | undefined; marks?: DiagramMarks; label: string }) {
  if (!props.xml) return <p role="status">Loading the diagram…</p>;
  return (
    <Suspense fallback={<p role="status">Loading the diagram…</p>}>
      <BpmnDiagram xml={props.xml} marks={props.marks} label={props.label} />
    </Suspense>
  );
}
