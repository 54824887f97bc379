import { expect } from 'chai';
import { isSqlLine, pluginSources } from './support/plugin-sources.js';

/**
 * A plugin's index.ts is wiring: it names the plugin's dependencies and registers what the
 * plugin gives — handlers, services, jobs, receivers, contributions — built by the files that
 * own that work (plugins/logs and plugins/identity are the model). So it holds no logic of its
 * own, which the rules below check line by line:
 *  - no SQL (the detector of sql-placement.test.ts);
 *  - no loops (`for`, `while`, `.forEach`), no `throw` and no `try`: a decision or a repetition
 *    is work for a handler, service or job of its own file;
 *  - no class;
 *  - no function body over MAX_FUNCTION_LINES lines but `setup` and `prepare` themselves: a
 *    small adapter (`start: () => worker.start()`) is wiring, a handler or a job body is not.
 */
const MAX_FUNCTION_LINES = 8;

/** Files that hold logic still, each with why. The last test fails while an entry is clean (or gone). */
const ALLOWED: Record<string, string> = {};

const RULES: Array<[string, RegExp]> = [
  ['a loop', /\b(?:for|while)\s*\(|\.forEach\(/],
  ['a throw or try', /\bthrow\b|\btry\s*\{/],
  ['a class', /^\s*(?:export\s+)?(?:default\s+)?class\s/],
];

/** A line opening a function's brace body: `function f(`, `(…) => {`, a method `name(…) {`. */
const FUNCTION_START =
  /\bfunction\b[^(]*\(|=>\s*\{\s*$|^\s*(?:async\s+)?(?!if\b|for\b|while\b|switch\b|catch\b)[A-Za-z_$][\w$]*\s*\(.*\)\s*(?::[^{]*)?\{\s*$/;
const PLUGIN_HOOK = /^\s*(?:async\s+)?(?:setup|prepare)\s*\(/;

/** Lines from `start` to the line closing the brace opened there (strings left out of the count). */
function bodyLines(lines: readonly string[], start: number): number {
  let depth = 0;
  for (let i = start; i < lines.length; i++) {
    for (const c of (lines[i] as string).replace(/(['"`])(?:\\.|(?!\1).)*\1/g, '')) {
      if (c === '{') depth++;
      else if (c === '}') depth--;
    }
    if (depth <= 0) return i - start + 1;
  }
  return lines.length - start;
}

function logicIn(code: string): string[] {
  const lines = code.split('\n');
  return lines.flatMap((line, i) => {
    const found = RULES.filter(([, rule]) => rule.test(line)).map(([what]) => what);
    if (isSqlLine(line)) found.push('SQL');
    if (FUNCTION_START.test(line) && !PLUGIN_HOOK.test(line)) {
      const length = bodyLines(lines, i);
      if (length > MAX_FUNCTION_LINES) found.push(`a function of ${length} lines`);
    }
    return found.map((what) => `${i + 1}: ${what}: ${line.trim()}`);
  });
}

const indexes = pluginSources.filter((s) => s.inside === 'index.ts');

describe("a plugin's index.ts is wiring only", () => {
  it('reads every plugin index.ts', () => {
    expect(indexes.length).to.be.greaterThan(15);
  });

  it('sees logic where there is some (the rules can fail)', () => {
    const sample = 'setup() {\n  for (const x of xs) run(x);\n  const f = () => {\n\n\n\n\n\n\n\n  };\n}';
    expect(logicIn(sample).map((hit) => hit.split(': ')[1])).to.deep.equal(['a loop', 'a function of 9 lines']);
  });

  it('holds no SQL, loop, throw, class or long function', () => {
    const offending = indexes
      .filter((s) => !(s.path in ALLOWED))
      .flatMap((s) => logicIn(s.code).map((hit) => `${s.path}:${hit}`));
    expect(offending, `move this logic out of index.ts:\n${offending.join('\n')}`).to.deep.equal([]);
  });

  it('keeps the allow-list honest: every file on it exists and still holds logic', () => {
    const stale = Object.keys(ALLOWED).filter((path) => {
      const source = indexes.find((s) => s.path === path);
      return !source || logicIn(source.code).length === 0;
    });
    expect(stale, `remove from ALLOWED:\n${stale.join('\n')}`).to.deep.equal([]);
  });
});
