// A bundle compiled as Node compiles a CommonJS file (src/gates/compiledBundle.ts): the build writes the module wrapper
// into the bundles it runs this way, so that V8 keeps the file's one string and not a second copy with the wrapper
// added (0.8–1.1 MB kept to the process's end, issue 46: peak RSS); a bundle without it is wrapped as before.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compileBundle, MODULE_WRAPPER, requireBundle } from '../../../src/gates/compiledBundle';
import { repoRoot } from '../../helpers/cli';

describe('gate: compiled bundles (src/gates/compiledBundle.ts)', () => {
  const file = join(repoRoot, 'dist', 'probe.js');

  it('runs a bundle the build wrapped as it is, once, with the module’s names', () => {
    const source = `${MODULE_WRAPPER.head}\n"use strict"; module.exports = { file: __filename, twice: exports === module.exports };})\n//# sourceMappingURL=probe.js.map\n`;
    assert.deepEqual(compileBundle(file, { source }).run(), { file, twice: true });
  });

  it('wraps a bundle without the wrapper, as Node does', () => {
    assert.deepEqual(compileBundle(file, { source: 'module.exports = { dir: __dirname };' }).run(), { dir: join(repoRoot, 'dist') });
  });

  it('loads a wrapped bundle without its cache (none was read) as require would load it unwrapped', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rbench-bundle-'));
    try {
      const wrapped = join(dir, 'wrapped.js');
      writeFileSync(wrapped, `${MODULE_WRAPPER.head}\nexports.where = __dirname;})\n`);
      assert.deepEqual({ ...(requireBundle(wrapped) as object) }, { where: dir });
      const plain = join(dir, 'plain.js');
      writeFileSync(plain, 'exports.where = __filename;\n');
      assert.deepEqual({ ...(requireBundle(plain) as object) }, { where: plain });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the build wraps the runner’s and the engine’s bundles', () => {
    for (const bundle of ['cli-main.js', 'worker-main.js']) {
      const text = readFileSync(join(repoRoot, 'dist', bundle), 'latin1');
      assert.ok(text.startsWith(MODULE_WRAPPER.head), `dist/${bundle} starts without the module wrapper`);
    }
  });
});
