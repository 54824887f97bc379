import type { Draft, StepDraft } from './types';

function stepLabel(step: StepDraft): string {
  if (step.mode === 'component') return `component ${step.component || '?'}`;
  const target =
    step.type === 'stream.publish' && typeof step.config.stream === 'string' ? ` → ${step.config.stream}` : '';
  return `${step.type || '?'}${target}`;
}

/** The pipeline as a picture: input → steps → sinks (a list, so screen readers read it in order). */
export function PipelinePicture({ draft }: { draft: Draft }) {
  const input =
    draft.input.kind === 'stream' ? `stream ${draft.input.stream || '?'}` : `source ${draft.input.component || '?'}`;
  const nodes = [`Input: ${input}`, ...draft.steps.map((s, i) => `Step ${i + 1}: ${stepLabel(s)}`)];
  return (
    <figure className="pipeline-figure">
      <figcaption className="visually-hidden">Pipeline</figcaption>
      <ol className="pipeline" aria-label="Pipeline">
        {nodes.map((text, i) => (
          <li key={text + String(i)} className="pipeline-item">
            {i > 0 ? (
              <span className="pipeline-arrow" aria-hidden="true">
                →{' '}
              </span>
            ) : null}
            <span className="pipeline-node">{text}</span>
          </li>
        ))}
        <li className="pipeline-item">
          <span className="pipeline-arrow" aria-hidden="true">
            →{' '}
          </span>
          <span className="pipeline-sinks">
            {draft.sinks.map((s, i) => (
              <span key={s.key} className="pipeline-node">
                Sink {i + 1}: {stepLabel(s)}
              </span>
            ))}
          </span>
        </li>
      </ol>
    </figure>
  );
}
