import type { ReactNode } from 'react';
import { Tab, TabList, TabPanel, Tabs } from 'react-aria-components';

interface Props<T extends string> {
  label: string;
  tabs: ReadonlyArray<{ id: T; title: string; content: () => ReactNode }>;
  selected: T;
  /** Called with the chosen tab; routes keep it in the URL. */
  onSelect: (id: T) => void;
}

/** Tabs whose selection lives in the URL (`?tab=`), with arrow-key navigation (react-aria-components). */
export function RouteTabs<T extends string>({ label, tabs, selected, onSelect }: Props<T>) {
  return (
    <Tabs className="tabs" selectedKey={selected} onSelectionChange={(key) => onSelect(String(key) as T)}>
      <TabList aria-label={label}>
        {tabs.map((t) => (
          <Tab key={t.id} id={t.id}>
            {t.title}
          </Tab>
        ))}
      </TabList>
      {tabs.map((t) => (
        <TabPanel key={t.id} id={t.id}>
          {t.id === selected ? t.content() : null}
        </TabPanel>
      ))}
    </Tabs>
  );
}
