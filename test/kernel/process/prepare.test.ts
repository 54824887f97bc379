import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { migratedTemplates } from '../../../kernel/db/embedded.js';
import { fromRoot } from '../../../kernel/paths.js';

describe("npm's prepare script (kernel/prepare.mjs, run by npm install and npm ci)", function () {
  this.timeout(300_000);

  it('leaves the first start a migrated embedded database to copy, prints no password, keeps no scratch data, exits 0', async () => {
    // A temporary folder of its own: whatever the script leaves behind is found there.
    const scratch = mkdtempSync(join(tmpdir(), 'prepare-test-'));
    try {
      const startedAt = Date.now();
      const env: NodeJS.ProcessEnv = { ...process.env, TMPDIR: scratch };
      delete env.RUNTIME_ADMIN_PASSWORD;
      const child = spawn(process.execPath, [fromRoot('kernel', 'prepare.mjs')], {
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
      expect(code, output).to.equal(0);
      expect(output).to.match(/prepared in \d+\.\d s/);
      expect(output).to.not.match(/password/i);
      expect(readdirSync(scratch)).to.deep.equal([]);
      // The migrated cluster of the local profile's migration set, made or used (which marks it) just now.
      const touched = migratedTemplates().filter((dir) => statSync(dir).mtimeMs >= startedAt - 1000);
      expect(touched, output).to.have.length.greaterThan(0);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });
});
