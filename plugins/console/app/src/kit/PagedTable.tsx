import type { ReactNode } from 'react';
import type { Page } from '../api/client';
import { ErrorBanner } from './ErrorDisplay';

export interface Column<T> {
  header: string;
  cell: (row: T) => ReactNode;
  /** Right-aligned numbers. */
  numeric?: boolean;
}

interface Props<T> {
  caption: string;
  columns: Column<T>[];
  rowKey: (row: T) => string;
  page: Page<T> | undefined;
  loading: boolean;
  error: unknown;
  /** The cursor the current page was read from (from the URL); undefined on the first page. */
  cursor: string | undefined;
  /** Moves to another page: a cursor, or undefined for the first page. Routes keep it in the URL. */
  onPage: (cursor: string | undefined) => void;
  empty?: ReactNode;
}

/** A table of one page of a server-paged list; the cursor lives in the URL so a link reproduces the view. */
export function PagedTable<T>({ caption, columns, rowKey, page, loading, error, cursor, onPage, empty }: Props<T>) {
  return (
    <div className="paged-table">
      <ErrorBanner error={error} />
      <div className="table-scroll">
        <table>
          <caption className="visually-hidden">{caption}</caption>
          <thead>
            <tr>
              {columns.map((c) => (
                <th key={c.header} scope="col" className={c.numeric ? 'num' : undefined}>
                  {c.header}
                </th>
              ))}
            </tr>
          </thead>
          <tbody aria-busy={loading || undefined}>
            {page?.items.map((row) => (
              <tr key={rowKey(row)}>
                {columns.map((c) => (
                  <td key={c.header} className={c.numeric ? 'num' : undefined}>
                    {c.cell(row)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {loading && !page ? <p role="status">Loading…</p> : null}
      {page && page.items.length === 0 ? <p className="muted">{empty ?? 'Nothing here yet.'}</p> : null}
      <nav className="pager" aria-label={`${caption} pages`}>
        <button
          type="button"
          className="btn btn-secondary"
          aria-disabled={!cursor || undefined}
          onClick={() => cursor && onPage(undefined)}
        >
          First page
        </button>
        <button
          type="button"
          className="btn btn-secondary"
          aria-disabled={!page?.next || undefined}
          onClick={() => page?.next && onPage(page.next)}
        >
          Next page
        </button>
      </nav>
    </div>
  );
}
