import { expect } from 'chai';
import { loadModule, normalizeModule, resolveRelative } from '../../sandbox/modules.js';

describe('sandbox: module resolution within the workspace', () => {
  const files = {
    'main.js': '',
    'lib/a.js': '',
    'lib/b.mjs': '',
    'lib/util/index.js': '',
    'data.json': '{"n": 1}',
    'bad.json': '{',
  };

  it("resolves relative paths against the importing file's folder", () => {
    expect(resolveRelative('main.js', './lib/a.js')).to.equal('lib/a.js');
    expect(resolveRelative('lib/a.js', './b.mjs')).to.equal('lib/b.mjs');
    expect(resolveRelative('lib/util/index.js', '../../main.js')).to.equal('main.js');
    expect(resolveRelative('lib/a.js', './/./b.mjs')).to.equal('lib/b.mjs');
  });

  it('refuses bare names, absolute paths, URLs and paths climbing out of the workspace', () => {
    for (const spec of ['fs', 'node:fs', '/etc/passwd', 'https://x.example/a.js', '.hidden', '../main.js']) {
      expect(resolveRelative('main.js', spec), spec).to.equal(null);
    }
    expect(resolveRelative('lib/a.js', '../../main.js')).to.equal(null);
    expect(resolveRelative('main.js', './')).to.equal(null);
  });

  it('finds a file with its extension or index.js left out, and names what is missing', () => {
    expect(normalizeModule(files, 'main.js', './lib/a')).to.equal('lib/a.js');
    expect(normalizeModule(files, 'main.js', './lib/b')).to.equal('lib/b.mjs');
    expect(normalizeModule(files, 'main.js', './lib/util')).to.equal('lib/util/index.js');
    expect(() => normalizeModule(files, 'main.js', './lib/c.js')).to.throw('no file lib/c.js in the workspace');
    expect(() => normalizeModule(files, 'main.js', 'fs')).to.throw('only files of the workspace can be imported');
    expect(() => normalizeModule({ ...files, constructor: 'x' }, 'main.js', './toString')).to.throw('no file toString');
  });

  it('loads a JSON file as a module exporting its value, and refuses one that is not JSON', () => {
    expect(loadModule(files, 'data.json')).to.equal('export default {"n": 1};\n');
    expect(() => loadModule(files, 'bad.json')).to.throw('bad.json is not valid JSON');
    expect(() => loadModule(files, 'missing.js')).to.throw('no file missing.js');
  });
});
