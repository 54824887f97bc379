import { closeCompletion } from '@codemirror/autocomplete';
import { PostgreSQL, sql } from '@codemirror/lang-sql';
import { keymap } from '@codemirror/view';
import { EditorView, basicSetup } from 'codemirror';
import { useEffect, useRef } from 'react';

interface Props {
  initial: string;
  onChange: (text: string) => void;
  onRun: () => void;
  label: string;
}

/** CodeMirror 6 with PostgreSQL highlighting; Ctrl/Cmd-Enter runs the query. Its own lazily loaded chunk. */
export default function SqlEditor({ initial, onChange, onRun, label }: Props) {
  const host = useRef<HTMLDivElement>(null);
  const latest = useRef({ onChange, onRun });
  latest.current = { onChange, onRun };
  // biome-ignore lint/correctness/useExhaustiveDependencies: the editor is made once; its text is its own state afterwards
  useEffect(() => {
    if (!host.current) return;
    const view = new EditorView({
      doc: initial,
      parent: host.current,
      extensions: [
        keymap.of([
          {
            key: 'Mod-Enter',
            run: (view) => {
              // The completion list would stay open over the result otherwise.
              closeCompletion(view);
              latest.current.onRun();
              return true;
            },
          },
        ]),
        basicSetup,
        sql({ dialect: PostgreSQL }),
        EditorView.contentAttributes.of({ 'aria-label': label }),
        EditorView.updateListener.of((update) => {
          if (update.docChanged) latest.current.onChange(update.state.doc.toString());
        }),
      ],
    });
    return () => view.destroy();
  }, []);
  return <div ref={host} className="sql-editor" />;
}
