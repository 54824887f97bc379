import { expect } from 'chai';
import { compileCheck } from '../../sandbox/compile-check.js';

describe('sandbox: compiling a script when it is saved (compileCheck)', () => {
  it('accepts what compiles, without running any of it', async () => {
    expect(await compileCheck('result = input.body;')).to.equal(undefined);
    const started = performance.now();
    expect(await compileCheck('while (true) {}\nthrow new Error("never runs");')).to.equal(undefined);
    expect(performance.now() - started).to.be.below(1000);
    expect(
      await compileCheck({
        'main.js': 'import { a } from "./lib/a.js";\nresult = a;',
        'lib/a.js': 'export const a = 1;',
      }),
    ).to.equal(undefined);
  });

  it('names the file and line of a syntax error, in the entry or in a module it imports', async () => {
    expect(await compileCheck('const ok = 1;\nconst x = ;')).to.deep.include({ file: 'main.js', line: 2 });
    const inLib = await compileCheck({
      'main.js': 'import { a } from "./lib.js";',
      'lib.js': '\n\nexport const a = ( ;',
    });
    expect(inLib).to.deep.include({ file: 'lib.js', line: 3 });
    expect(inLib?.message).to.match(/SyntaxError/);
  });

  it('names an import of a file the workspace lacks, and where it is written', async () => {
    const missing = await compileCheck('const a = 1;\nimport x from "./nope.js";');
    expect(missing?.message).to.equal('cannot import "./nope.js" from main.js: no file nope.js in the workspace');
    expect(missing).to.deep.include({ file: 'main.js', line: 2 });
    const deeper = await compileCheck({ 'main.js': 'import "./lib.js";', 'lib.js': 'import "./gone.js";' });
    expect(deeper).to.deep.include({ file: 'lib.js', line: 1 });
    expect(deeper?.message).to.match(/no file gone\.js/);
  });

  it('refuses a bare or absolute import with the reason a run would give', async () => {
    const bare = await compileCheck('import _ from "lodash";');
    expect(bare?.message).to.match(/cannot import "lodash": only files of the workspace can be imported/);
    expect((await compileCheck('import fs from "node:fs";'))?.message).to.match(/cannot import "node:fs"/);
  });
});
