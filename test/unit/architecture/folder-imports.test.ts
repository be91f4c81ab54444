/**
 * The import graph of the sources, read from the files themselves (every relative `import`,
 * `export … from`, `import type` and `import()`):
 * - the top-level folders of src/main/core (its capabilities; each folder of `backends/` counts
 *   on its own, the files directly in core/ as one more) import each other without a cycle;
 * - the layers import only downward: src/shared nothing of main, renderer or simulator; src/renderer
 *   nothing of main or simulator; src/simulator nothing of main or renderer.
 * ESLint (eslint.config.js, test/unit/core/inner-layers.test.ts) refuses some of these one import
 * at a time; this reads the whole graph, so a cycle through several folders is found too.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CORE, SRC, ROOT, capabilityOf, importsOf, sourceFiles } from '../../support/source-imports.js';

/** Edges between capability folders, each with one import that makes it. */
function folderGraph(): Map<string, Map<string, string>> {
  const graph = new Map<string, Map<string, string>>();
  for (const file of sourceFiles(CORE)) {
    const from = capabilityOf(file);
    if (!graph.has(from)) graph.set(from, new Map());
    for (const target of importsOf(file)) {
      if (!target.startsWith(CORE + path.sep)) continue;
      const to = capabilityOf(target);
      if (to === from || graph.get(from)!.has(to)) continue;
      graph.get(from)!.set(to, `${path.relative(CORE, file)} → ${path.relative(CORE, target)}`);
    }
  }
  return graph;
}

/** The cycles of a graph: one per strongly connected component of more than one node. */
export function cyclesOf(graph: Map<string, Map<string, string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  let next = 0;
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v)?.keys() ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) components.push(component);
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  // each component as one closed path through its folders, found by walking its edges
  return components.map((component) => {
    const inside = new Set(component);
    const start = component.sort()[0]!;
    const pathOf = (at: string, seen: string[]): string[] | null => {
      for (const to of graph.get(at)?.keys() ?? []) {
        if (!inside.has(to)) continue;
        if (to === start) return [...seen, start];
        if (!seen.includes(to)) {
          const found = pathOf(to, [...seen, to]);
          if (found) return found;
        }
      }
      return null;
    };
    return pathOf(start, [start]) ?? component;
  });
}

/** One cycle, each step with the import that makes it, and every folder tangled with it. */
function describeCycle(graph: Map<string, Map<string, string>>, cycle: string[]): string {
  const inside = new Set(tangledWith(graph, cycle[0]!));
  const steps = cycle
    .slice(0, -1)
    .map((from, i) => `  ${from} → ${cycle[i + 1]}  (${graph.get(from)!.get(cycle[i + 1]!)})`);
  const edges = [...inside].flatMap((from) =>
    [...(graph.get(from) ?? [])]
      .filter(([to]) => inside.has(to))
      .map(([to, why]) => `    ${from} → ${to}  (${why})`),
  );
  return [
    cycle.join(' → '),
    ...steps,
    `  folders in one tangle: ${[...inside].sort().join(', ')}; every import between them:`,
    ...edges,
  ].join('\n');
}

/** The folders that both reach `start` and are reached from it. */
function tangledWith(graph: Map<string, Map<string, string>>, start: string): string[] {
  const reach = (from: string, edges: (v: string) => string[]): Set<string> => {
    const seen = new Set([from]);
    const todo = [from];
    while (todo.length) {
      for (const w of edges(todo.pop()!)) {
        if (seen.has(w)) continue;
        seen.add(w);
        todo.push(w);
      }
    }
    return seen;
  };
  const forward = reach(start, (v) => [...(graph.get(v)?.keys() ?? [])]);
  const backward = reach(start, (v) => [...graph].filter(([, to]) => to.has(v)).map(([from]) => from));
  return [...forward].filter((v) => backward.has(v));
}

/** The imports of files under `layer` that reach into any of `forbidden` (folders of src/). */
function reachesInto(layer: string, forbidden: string[]): string[] {
  const roots = forbidden.map((f) => path.join(SRC, f) + path.sep);
  return sourceFiles(path.join(SRC, layer)).flatMap((file) =>
    importsOf(file)
      .filter((target) => roots.some((root) => target.startsWith(root)))
      .map((target) => `${path.relative(ROOT, file)} → ${path.relative(ROOT, target)}`),
  );
}

describe('folders of src/main/core by capability', () => {
  it('import each other without a cycle', () => {
    const graph = folderGraph();
    expect(graph.size).toBeGreaterThan(10);
    const cycles = cyclesOf(graph).map((cycle) => describeCycle(graph, cycle));
    expect(cycles, `import cycles between core folders:\n${cycles.join('\n\n')}`).toEqual([]);
  });

  it('finds a cycle through several folders and names the imports that make it', () => {
    const graph = new Map([
      ['a', new Map([['b', 'a/x.ts → b/y.ts']])],
      ['b', new Map([['c', 'b/y.ts → c/z.ts']])],
      [
        'c',
        new Map([
          ['a', 'c/z.ts → a/x.ts'],
          ['d', 'c/z.ts → d/w.ts'],
        ]),
      ],
      ['d', new Map()],
    ]);
    const cycles = cyclesOf(graph);
    expect(cycles).toEqual([['a', 'b', 'c', 'a']]);
    expect(describeCycle(graph, cycles[0]!)).toContain('c → a  (c/z.ts → a/x.ts)');
  });

  it('counts each backend as its own folder and the files of core/ as one', () => {
    expect(capabilityOf(path.join(CORE, 'backends/public-api/x.ts'))).toBe('backends/public-api');
    expect(capabilityOf(path.join(CORE, 'backends/port.ts'))).toBe('backends');
    expect(capabilityOf(path.join(CORE, 'journal/migrations/001-initial.ts'))).toBe('journal');
    expect(capabilityOf(path.join(CORE, 'errors.ts'))).toBe('(core root files)');
  });
});

describe('the layers of src import only downward', () => {
  it.each([
    ['shared', ['main', 'renderer', 'simulator', 'cli', 'preload']],
    ['renderer', ['main', 'simulator', 'cli']],
    ['simulator', ['main', 'renderer', 'cli']],
  ])('src/%s imports nothing of %j', (layer, forbidden) => {
    expect(reachesInto(layer, forbidden)).toEqual([]);
  });
});
