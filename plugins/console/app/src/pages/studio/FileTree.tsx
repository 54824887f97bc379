import { useId, useState } from 'react';

interface Props {
  paths: string[];
  current: string | undefined;
  canWrite: boolean;
  onOpen: (path: string) => void;
  onAdd: (path: string) => void;
}

/** Paths grouped by their folder, in order (a flat tree is enough for a workspace's ≤ 200 files). */
function byFolder(paths: string[]): Array<[string, string[]]> {
  const folders = new Map<string, string[]>();
  for (const path of paths) {
    const cut = path.lastIndexOf('/');
    const folder = cut < 0 ? '' : path.slice(0, cut);
    folders.set(folder, [...(folders.get(folder) ?? []), path]);
  }
  return [...folders.entries()].sort(([a], [b]) => a.localeCompare(b));
}

/** The workspace's files: one button per file (the open one marked), and a field to add one. */
export function FileTree({ paths, current, canWrite, onOpen, onAdd }: Props) {
  const id = useId();
  const [path, setPath] = useState('');
  return (
    <nav aria-label="Files" className="file-tree">
      {byFolder(paths).map(([folder, files]) => (
        <div key={folder}>
          {folder ? <h3 className="folder">{folder}/</h3> : null}
          <ul>
            {files.map((p) => (
              <li key={p}>
                <button
                  type="button"
                  className="link-button"
                  aria-current={p === current ? 'true' : undefined}
                  onClick={() => onOpen(p)}
                >
                  {folder ? p.slice(folder.length + 1) : p}
                </button>
              </li>
            ))}
          </ul>
        </div>
      ))}
      {canWrite ? (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            const clean = path.trim();
            if (clean) onAdd(clean);
            setPath('');
          }}
        >
          <label htmlFor={id}>New file path</label>
          <input id={id} value={path} onChange={(e) => setPath(e.target.value)} placeholder="lib/util.js" />
          <button type="submit" className="btn btn-secondary">
            Add file
          </button>
        </form>
      ) : (
        <p className="needs-permission">Adding files needs studio:write</p>
      )}
    </nav>
  );
}
