/**
 * The sources' relative imports, read from the files themselves (every relative `import`,
 * `export … from`, `import type` and `import()`), for the architecture checks in
 * test/unit/architecture/ (the folder graph without cycles, the folder READMEs' import lines).
 */
import fs from 'node:fs';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '../..');
export const SRC = path.join(ROOT, 'src');
export const CORE = path.join(SRC, 'main/core');
/** Folders of core/ whose subfolders are the capabilities (one backend each). */
const GROUPS = new Set(['backends']);

const SPECIFIER = /\b(?:from\s*|import\s*\(\s*|import\s+)(['"])(\.{1,2}\/[^'"]+)\1/g;

export function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(full);
    return /\.(ts|tsx|mts)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

/** The relative import specifiers of a source text (comments are not imports). */
export function importSpecifiers(code: string): string[] {
  const bare = code.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  return [...bare.matchAll(SPECIFIER)].map((m) => m[2]!);
}

/** Every relative import of `file`, as absolute paths. */
export function importsOf(file: string): string[] {
  return importSpecifiers(fs.readFileSync(file, 'utf8')).map((s) => path.resolve(path.dirname(file), s));
}

/** The capability folder of a file of core/: its top-level folder (or `backends/<name>`). */
export function capabilityOf(file: string): string {
  const parts = path.relative(CORE, file).split(path.sep);
  if (parts.length === 1) return '(core root files)';
  if (GROUPS.has(parts[0]!) && parts.length > 2) return `${parts[0]}/${parts[1]}`;
  return parts[0]!;
}
