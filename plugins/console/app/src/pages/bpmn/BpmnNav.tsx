import '../pages.css';
import { Link } from '@tanstack/react-router';

const TABS = [
  { to: '/bpmn', label: 'Definitions' },
  { to: '/bpmn/instances', label: 'Instances' },
  { to: '/bpmn/tasks', label: 'Task inbox' },
  { to: '/bpmn/incidents', label: 'Incidents' },
  { to: '/bpmn/events', label: 'Messages and signals' },
] as const;

/** The BPMN area's own navigation: one link per view, the current one marked for screen readers. */
export function BpmnNav() {
  return (
    <nav aria-label="BPMN views" className="tabs">
      {TABS.map((tab) => (
        <Link key={tab.to} to={tab.to} activeOptions={{ exact: true }} activeProps={{ 'aria-current': 'page' }}>
          {tab.label}
        </Link>
      ))}
    </nav>
  );
}
