import { useId, useState } from 'react';
import { asCurl, asMcpCall, type ActionCall } from './curl';

/** "Show as curl / MCP tool call": the action the user is about to take, ready to copy into a script or an agent. */
export function ShowAsCode({ call, initiallyOpen = false }: { call: ActionCall; initiallyOpen?: boolean }) {
  const [open, setOpen] = useState(initiallyOpen);
  const [copied, setCopied] = useState<string | null>(null);
  const id = useId();
  const copy = (label: string, text: string) => {
    navigator.clipboard?.writeText(text).then(
      () => setCopied(label),
      () => setCopied(null),
    );
  };
  return (
    <div className="show-as-code">
      <button
        type="button"
        className="link-button"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen(!open)}
      >
        {open ? 'Hide code' : 'Show as curl / MCP'}
      </button>
      {open && (
        <div id={id} className="code-pair">
          <figure>
            <figcaption>
              curl{' '}
              <button type="button" className="small" onClick={() => copy('curl', asCurl(call))}>
                Copy curl
              </button>
            </figcaption>
            <pre tabIndex={0}>{asCurl(call)}</pre>
          </figure>
          <figure>
            <figcaption>
              MCP tool call{' '}
              <button type="button" className="small" onClick={() => copy('MCP', asMcpCall(call))}>
                Copy MCP call
              </button>
            </figcaption>
            <pre tabIndex={0}>{asMcpCall(call)}</pre>
          </figure>
          <p role="status" className="muted">
            {copied ? `${copied} copied.` : ''}
          </p>
        </div>
      )}
    </div>
  );
}
