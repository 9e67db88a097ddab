import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/*
 * Arrows between the engine's folders go one way (docs/architecture.md): no folder may reach, through
 * others, back to itself. engine/core/ and engine/adapters/ count by their subfolders (core/derive,
 * adapters/sqlite), so the core's own parts are held to it too.
 */
const engineDir = dirname(fileURLToPath(import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'testing' ? [] : sourceFiles(path);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** A file's folder under engine/ (two levels under core/ and adapters/), or the file at its root. */
function nodeOf(file: string): string {
  const parts = relative(engineDir, file).split('/');
  return parts[0] === 'core' || parts[0] === 'adapters' ? parts.slice(0, 2).join('/') : parts[0]!;
}

/** Folder -> folders it imports (static and dynamic imports, type imports included). */
function folderGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of sourceFiles(engineDir)) {
    const from = nodeOf(file);
    for (const { fileName } of ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const target = resolve(dirname(file), fileName);
      if (relative(engineDir, target).startsWith('..')) continue;
      const to = nodeOf(target);
      if (to !== from) graph.set(from, (graph.get(from) ?? new Set()).add(to));
    }
  }
  return graph;
}

/** Strongly connected components with more than one node (Tarjan). */
function cycles(graph: Map<string, Set<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const out: string[][] = [];
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (stack.includes(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        component.push(w);
      } while (w !== v);
      if (component.length > 1) out.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return out;
}

describe('engine folders', () => {
  it('form no cycle', () => {
    const graph = folderGraph();
    assert.ok((graph.get('local')?.size ?? 0) > 3, 'the graph was read');
    const inCycles = cycles(graph).flatMap((component) =>
      component.flatMap((a) =>
        [...(graph.get(a) ?? [])].filter((b) => component.includes(b)).map((b) => `${a} -> ${b}`),
      ),
    );
    assert.deepEqual(inCycles.sort(), []);
  });
});
