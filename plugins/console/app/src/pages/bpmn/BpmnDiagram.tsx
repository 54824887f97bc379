import 'bpmn-js/dist/assets/diagram-js.css';
import 'bpmn-js/dist/assets/bpmn-js.css';
import './bpmn.css';
import NavigatedViewer from 'bpmn-js/lib/NavigatedViewer';
import { useEffect, useRef, useState } from 'react';
import type { DiagramMarks } from './diagram-state';

interface Props {
  xml: string;
  /** What to mark; absent for a definition's plain diagram. */
  marks?: DiagramMarks;
  label: string;
}

interface Shape {
  id: string;
  source?: { id: string };
  target?: { id: string };
  waypoints?: unknown[];
}

const MARKER = { completed: 'rt-completed', active: 'rt-active', incident: 'rt-incident' } as const;

/**
 * A BPMN diagram drawn with bpmn-js's NavigatedViewer (pan and zoom, no editing), loaded only when
 * a page shows a diagram. With marks, completed elements (and the flows between two of them),
 * active ones and those with an open incident get a marker class; the same facts are listed in
 * text next to the picture.
 */
export default function BpmnDiagram({ xml, marks, label }: Props) {
  const host = useRef<HTMLDivElement>(null);
  const [problem, setProblem] = useState<string | null>(null);

  useEffect(() => {
    if (!host.current) return;
    const viewer = new NavigatedViewer({ container: host.current });
    let cancelled = false;
    viewer
      .importXML(xml)
      .then(() => {
        if (cancelled) return;
        const canvas = viewer.get<{ zoom: (level: string) => void; addMarker: (id: string, cls: string) => void }>(
          'canvas',
        );
        canvas.zoom('fit-viewport');
        if (!marks) return;
        const registry = viewer.get<{ getAll: () => Shape[]; get: (id: string) => Shape | undefined }>(
          'elementRegistry',
        );
        const visited = new Set(marks.completed.concat(marks.active, marks.incident));
        for (const [kind, ids] of Object.entries(marks) as Array<[keyof DiagramMarks, string[]]>)
          for (const id of ids) if (registry.get(id)) canvas.addMarker(id, MARKER[kind]);
        // A flow is on the path taken when both its ends were reached.
        for (const element of registry.getAll())
          if (
            element.waypoints &&
            element.source &&
            element.target &&
            visited.has(element.source.id) &&
            visited.has(element.target.id)
          )
            canvas.addMarker(element.id, MARKER.completed);
      })
      .catch((err: Error) => !cancelled && setProblem(err.message));
    return () => {
      cancelled = true;
      viewer.destroy();
    };
  }, [xml, marks]);

  return (
    // The canvas holds focusable parts (bpmn-js's keyboard-pannable canvas, its watermark link), so it is
    // a captioned figure rather than an image; the page lists the marked elements in text beside it.
    <figure className="bpmn-figure">
      <div ref={host} className="bpmn-canvas" data-testid="bpmn-diagram" />
      <figcaption className={problem ? undefined : 'visually-hidden'}>
        {problem ? <span role="alert">The diagram could not be drawn: {problem}</span> : label}
      </figcaption>
    </figure>
  );
}
