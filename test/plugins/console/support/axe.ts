import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const require = createRequire(import.meta.url);
const axeSource = (require('axe-core') as { source: string }).source;

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: unknown[]; failureSummary?: string }>;
}

/**
 * Runs axe-core in the page for WCAG 2.1 A and AA and returns the violations, one line each.
 * The script is evaluated through the DevTools protocol, which the page's CSP does not govern.
 */
export async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(axeSource);
  // A string, so it runs in the page (the project compiles without the DOM library).
  const violations = await page.evaluate(`(async () => {
    const result = await window.axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] }, resultTypes: ['violations'] });
    return result.violations;
  })()`);
  return (violations as AxeViolation[]).map(
    (v) =>
      `${v.id} (${v.impact ?? 'n/a'}): ${v.help} — ${v.nodes
        .map((n) => JSON.stringify(n.target))
        .slice(0, 5)
        .join(', ')}`,
  );
}
