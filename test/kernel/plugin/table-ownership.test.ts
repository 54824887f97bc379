import { expect } from 'chai';
import { pluginSources, tableOwners, tablesNamed } from './support/plugin-sources.js';

/**
 * A plugin's SQL names only its own tables: those its migrations create (plugins/<id>/migrations).
 * The kernel's own tables (kernel_*) are the kernel's. Reading another plugin's data goes through
 * what that plugin publishes — a service or receiver on its contract (the workflows plugin reads
 * components through the components plugin's directory, plugins/workflows/components-directory.ts),
 * or a contribution the owner makes itself (an alert signal, a dashboard section, a SQL console
 * view) — so a plugin can change its tables without breaking another.
 */

/**
 * Cross-plugin SQL left, each with why (`<file> -> <table>`). An entry goes once it is fixed: the
 * last test fails while an entry names SQL that is no longer there.
 */
const ALLOWED: Record<string, string> = {};

const named = pluginSources.flatMap((source) =>
  tablesNamed(source).map(({ table, line }) => ({ source, table, line, owner: owner(table) })),
);

function owner(table: string): string | undefined {
  return table.startsWith('kernel_') ? 'kernel' : tableOwners.get(table);
}

const crossing = named.filter((n) => n.owner !== undefined && n.owner !== n.source.plugin);
const key = (n: (typeof named)[number]) => `${n.source.path} -> ${n.table}`;

describe("a plugin's SQL names only its own tables", () => {
  it('knows which plugin creates each table', () => {
    expect(tableOwners.get('components')).to.equal('components');
    expect(tableOwners.get('audit_records')).to.equal('audit');
    expect(tableOwners.get('streams_messages')).to.equal('streams');
    expect(tableOwners.size).to.be.greaterThan(40);
  });

  it('finds the tables named in SQL (the detector sees them)', () => {
    expect(named.filter((n) => n.owner === n.source.plugin).length).to.be.greaterThan(100);
  });

  it("names no other plugin's table, nor the kernel's", () => {
    const offending = crossing
      .filter((n) => !(key(n) in ALLOWED))
      .map((n) => `${n.source.path}:${n.line}: ${n.table} (${n.owner}'s)`);
    expect(offending, `read these through the owning plugin:\n${offending.join('\n')}`).to.deep.equal([]);
  });

  it('keeps the allow-list honest: every entry still names that table', () => {
    const left = new Set(crossing.map(key));
    const stale = Object.keys(ALLOWED).filter((entry) => !left.has(entry));
    expect(stale, `remove from ALLOWED:\n${stale.join('\n')}`).to.deep.equal([]);
  });
});
