// No module imports itself back through others, counting `import type` too: eslint's import-x/no-cycle
// skips type-only imports, and a type circle still ties two files' meaning together (docs/architecture.md).
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import * as ts from 'typescript';

const ROOT = resolve(__dirname, '../../../..');
const FOLDERS = ['src', 'webview'];

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Each file's imports and re-exports (static, dynamic, type-only) that resolve to another file of the tree. */
function importGraph(files: string[]): Map<string, string[]> {
  const known = new Set(files);
  const options: ts.CompilerOptions = { module: ts.ModuleKind.CommonJS, moduleResolution: ts.ModuleResolutionKind.Node10 };
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets = info.importedFiles
      .map((imported) => ts.resolveModuleName(imported.fileName, file, options, ts.sys).resolvedModule?.resolvedFileName)
      .filter((target): target is string => target !== undefined && known.has(target));
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** Strongly connected components of more than one file (Tarjan), or a file importing itself. */
export function importCircles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  let next = 0;
  const visit = (file: string): void => {
    index.set(file, next);
    low.set(file, next);
    next++;
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file)!, index.get(target)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || (graph.get(file) ?? []).includes(file)) circles.push(component.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return circles;
}

describe('architecture: import circles', () => {
  it('finds a circle through a type-only import (the check itself)', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', ['a.ts']],
    ]);
    assert.deepEqual(importCircles(graph), [['a.ts', 'b.ts', 'c.ts']]);
    assert.deepEqual(
      importCircles(
        new Map([
          ['a.ts', ['b.ts']],
          ['b.ts', []],
        ]),
      ),
      [],
    );
  });

  it('reads type-only imports and re-exports as edges', () => {
    const graph = importGraph(sourceFiles(join(ROOT, 'src', 'results')));
    const runFile = join(ROOT, 'src', 'results', 'runFile.ts');
    const importers = [...graph].filter(([, targets]) => targets.includes(runFile));
    assert.ok(importers.length > 3, `expected several files of src/results to import runFile.ts, found ${importers.length}`);
  });

  it('src/ and webview/ have no import circle', () => {
    const files = FOLDERS.flatMap((folder) => sourceFiles(join(ROOT, folder)));
    assert.ok(files.length > 100, `expected the source tree, found ${files.length} files`);
    const circles = importCircles(importGraph(files)).map((circle) => circle.map((file) => relative(ROOT, file)).join(' ↔ '));
    assert.deepEqual(circles, [], `import circles (break each: move the shared piece into a file both import):\n${circles.join('\n')}`);
  });
});
