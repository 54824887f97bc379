import { javascript } from '@codemirror/lang-javascript';
import { EditorView, basicSetup } from 'codemirror';
import { useEffect, useRef } from 'react';
import { yCollab } from 'y-codemirror.next';
import * as Y from 'yjs';
import type { CollabSession } from './collab';

interface Props {
  session: CollabSession;
  path: string;
  readOnly: boolean;
}

function language(path: string) {
  // JSON is a JavaScript expression: the same highlighting serves test cases.
  if (/\.(m?js|ts|json)$/.test(path)) return javascript({ typescript: path.endsWith('.ts') });
  return [];
}

/**
 * CodeMirror 6 bound to one file's Y.Text of the shared document (y-codemirror.next): edits go to
 * every other editor at once, and their cursors and selections show with their names. Loaded as
 * its own chunk the first time a workspace is opened.
 */
export default function CollabEditor({ session, path, readOnly }: Props) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!host.current) return;
    const text = session.text(path);
    const undoManager = new Y.UndoManager(text);
    session.setFile(path);
    const view = new EditorView({
      doc: text.toString(),
      parent: host.current,
      extensions: [
        basicSetup,
        language(path),
        yCollab(text, session.awareness, { undoManager }),
        EditorView.editable.of(!readOnly),
        EditorView.contentAttributes.of({ 'aria-label': `Editor for ${path}` }),
      ],
    });
    return () => {
      view.destroy();
      undoManager.destroy();
    };
  }, [session, path, readOnly]);
  return <div ref={host} className="studio-editor" />;
}
