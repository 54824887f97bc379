/** A page another change fills in; it keeps the route, navigation and axe checks whole meanwhile. */
export function Placeholder({ title }: { title: string }) {
  return (
    <div className="page">
      <h1>{title}</h1>
      <p className="muted">This page is being built.</p>
    </div>
  );
}
