import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { BOOT_PHASES } from '../../kernel/boot/phases.js';
import { fromRoot } from '../../kernel/paths.js';

/**
 * The boot's phases are named once, in kernel/boot/phases.ts: docs/reference/boot-phases.md is
 * generated from that list (its staleness is test/docs/reference.test.ts's), and the lifecycle's
 * diagram, drawn by hand, is checked against it here.
 */
describe('docs: the boot phases are those of kernel/boot/phases.ts', () => {
  /** The phases a diagram's `a ─► b ─► c` chains name, in order, read across its lines. */
  function chained(diagram: string): string[] {
    const names: string[] = [];
    for (const line of diagram.split('\n')) {
      // The close() column, when the line has one, starts after a run of spaces.
      const left = line.trim().split(/\s{2,}/)[0] ?? '';
      if (!/^[a-z]+ ─► /.test(left)) continue;
      names.push(...left.split('─►').map((name) => name.trim()));
    }
    return names;
  }

  it('plugin-authors/lifecycle.md draws every phase in the list’s order, then serving', () => {
    const text = readFileSync(fromRoot('docs', 'plugin-authors', 'lifecycle.md'), 'utf8');
    const diagram = /```\n boot[\s\S]*?```/.exec(text)?.[0] ?? '';
    expect(chained(diagram)).to.deep.equal([...BOOT_PHASES.map((phase) => phase.name), 'serving']);
  });

  it('the check can fail: a diagram with a phase left out or renamed does not match', () => {
    const names = BOOT_PHASES.map((phase) => phase.name);
    const short = ` ${names.filter((name) => name !== 'wire').join(' ─► ')} ─► serving`;
    expect(chained(short)).to.not.deep.equal([...names, 'serving']);
    expect(chained(` ${names.join(' ─► ')} ─► serving`)).to.deep.equal([...names, 'serving']);
  });

  it('names each phase once, each with what it does', () => {
    const names = BOOT_PHASES.map((phase) => phase.name);
    expect(new Set(names).size).to.equal(names.length);
    for (const phase of BOOT_PHASES) expect(phase.does, phase.name).to.match(/^[A-Z].*\.$/s);
  });
});
