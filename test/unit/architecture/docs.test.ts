/**
 * The documentation matches the code (issue 38). Every list is derived from the code, never kept
 * by hand:
 * - each environment setting the code reads (src/ and scripts/: `process.env.NAME`, `env.NAME`,
 *   `env['NAME']`, `const { NAME } = process.env`, a `'FRAMEWRIGHT_…'`/`'PLATFORM_…'` name in a
 *   constant, `$FRAMEWRIGHT_…` in a shell script) has exactly one home: a table row whose first
 *   cell names it (docs/settings.md says which table takes which kind);
 * - each CLI command of the commander program has exactly one home: a table row whose first cell
 *   is `framewright <command> …` (docs/cli.md), and no row names a command that does not exist;
 * - each exit code has exactly one row in the one "exit codes" table;
 * - every relative link (and its #anchor) and every backticked source path in README.md,
 *   docs/**.md and the folder READMEs exists;
 * - each folder README of src/main/core says in its "Imports" / "Imported by" lines what the
 *   files really import and are imported by.
 * Each rule is a pure function over strings, shown failing on a planted error below.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../../src/cli/main.js';
import { ExitCode } from '../../../src/cli/exit-codes.js';
import { CORE, ROOT, SRC, capabilityOf, importsOf, sourceFiles } from '../../support/source-imports.js';

interface Doc {
  /** Path from the repository root, `/`-separated. */
  file: string;
  text: string;
}

// ---------------------------------------------------------------- reading the tree

function walk(dir: string, keep: (name: string) => boolean): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory())
      return ['node_modules', '.git', 'out', 'dist', '.work'].includes(entry.name) ? [] : walk(full, keep);
    return keep(entry.name) ? [full] : [];
  });
}

const read = (full: string): Doc => ({
  file: path.relative(ROOT, full).split(path.sep).join('/'),
  text: fs.readFileSync(full, 'utf8'),
});

/** README.md, docs/**.md and every folder README.md of src/, test/, scripts/ and bench/. */
function allDocs(): Doc[] {
  const folderReadmes = ['src', 'test', 'scripts', 'bench'].flatMap((d) =>
    walk(path.join(ROOT, d), (n) => n === 'README.md'),
  );
  return [
    path.join(ROOT, 'README.md'),
    ...walk(path.join(ROOT, 'docs'), (n) => n.endsWith('.md')),
    ...folderReadmes,
  ].map(read);
}

const exists = (fromRoot: string): boolean => fs.existsSync(path.join(ROOT, fromRoot));

// ---------------------------------------------------------------- pure rules

/** The environment settings a source text reads. */
export function envSettingsIn(file: string, code: string): string[] {
  const names = new Set<string>();
  const patterns = file.endsWith('.sh')
    ? [/\$\{?((?:FRAMEWRIGHT|PLATFORM)_[A-Z0-9_]+)/g]
    : [
        /\benv\??\.([A-Z][A-Z0-9_]*)\b/g,
        /\benv\[\s*['"`]([A-Z][A-Z0-9_]*)['"`]\s*\]/g,
        /['"`]((?:FRAMEWRIGHT|PLATFORM)_[A-Z0-9_]+)['"`]/g,
      ];
  for (const pattern of patterns) for (const m of code.matchAll(pattern)) names.add(m[1]!);
  // const { FRAMEWRIGHT_X, PORT = '0' } = process.env
  for (const m of code.matchAll(/\{([^{}]*)\}\s*=\s*(?:process\.)?env\b/g))
    for (const name of m[1]!.matchAll(/(?:^|,)\s*([A-Z][A-Z0-9_]*)\b/g)) names.add(name[1]!);
  return [...names];
}

interface TableRow {
  file: string;
  line: number;
  cells: string[];
  /** The first cell of the table's header row, lower-cased. */
  header: string;
  isHeader: boolean;
}

/** The rows of every markdown table: file, line, cells (without the outer pipes), header. */
function tableRows(docs: Doc[]): TableRow[] {
  return docs.flatMap((doc) => {
    const rows: TableRow[] = [];
    const lines = doc.text.split('\n');
    let header: string | undefined;
    lines.forEach((text, i) => {
      if (!/^\s*\|.*\|\s*$/.test(text)) return void (header = undefined);
      const cells = text
        .trim()
        .slice(1, -1)
        .split(/(?<!\\)\|/)
        .map((c) => c.trim());
      if (/^\s*\|[\s:|-]+\|\s*$/.test(text)) return;
      const isHeader = header === undefined;
      if (isHeader) header = cells[0]!.toLowerCase();
      rows.push({ file: doc.file, line: i + 1, cells, header: header!, isHeader });
    });
    return rows;
  });
}

/** For each name, where a table row's first cell names it in backticks (its home). */
export function homesOf(names: string[], docs: Doc[]): Map<string, string[]> {
  const homes = new Map(names.map((n) => [n, [] as string[]]));
  for (const row of tableRows(docs))
    for (const m of row.cells[0]!.matchAll(/`([A-Z][A-Z0-9_]*)(?:=[^`]*)?`/g))
      homes.get(m[1]!)?.push(`${row.file}:${row.line}`);
  return homes;
}

/** What is wrong with where the settings are documented: none, or several homes. */
export function settingProblems(names: string[], docs: Doc[]): string[] {
  return [...homesOf(names, docs)].flatMap(([name, at]) =>
    at.length === 1
      ? []
      : at.length === 0
        ? [`${name}: read by the code but has no row in a settings table (docs/settings.md)`]
        : [
            `${name}: documented in ${at.length} table rows (${at.join(', ')}); give it one home and link to it`,
          ],
  );
}

/** Every command path of a commander program: `serve`, `sequence new`, … */
export function commandPaths(program: Command, prefix = ''): string[] {
  return program.commands.flatMap((c) => {
    const name = `${prefix}${c.name()}`;
    return [name, ...commandPaths(c, `${name} `)];
  });
}

/** The command a `framewright …` first cell documents: the longest known command path it starts with. */
function commandOfCell(cell: string, known: Set<string>): string | null | undefined {
  const m = /^`(?:npx )?framewright ([^`]*)`/.exec(cell);
  if (!m) return undefined;
  const words = m[1]!.split(/\s+/).filter((w) => /^[a-z][a-z-]*$/.test(w));
  let found: string | null = null;
  for (let n = 1; n <= words.length; n++) {
    const candidate = words.slice(0, n).join(' ');
    if (known.has(candidate)) found = candidate;
    else break;
  }
  return found;
}

/** What is wrong with where the CLI commands are documented. */
export function commandProblems(commands: string[], docs: Doc[]): string[] {
  const known = new Set(commands);
  const homes = new Map(commands.map((c) => [c, [] as string[]]));
  const problems: string[] = [];
  // a command's home is a row of a table headed `command` (a benchmark table may time one too)
  for (const row of tableRows(docs).filter((r) => r.header === 'command' && !r.isHeader)) {
    const command = commandOfCell(row.cells[0]!, known);
    if (command === undefined) continue;
    if (command === null)
      problems.push(`${row.file}:${row.line}: ${row.cells[0]} is not a command of the CLI`);
    else homes.get(command)!.push(`${row.file}:${row.line}`);
  }
  for (const [command, at] of homes)
    if (at.length === 0) problems.push(`framewright ${command}: a command with no row in docs/cli.md`);
    else if (at.length > 1)
      problems.push(`framewright ${command}: documented in ${at.length} rows (${at.join(', ')})`);
  return problems;
}

/** The rows `| N | meaning |` of every table under a heading that says "exit codes". */
export function exitCodeRows(docs: Doc[]): { code: number; meaning: string; at: string }[] {
  return docs.flatMap((doc) => {
    const rows: { code: number; meaning: string; at: string }[] = [];
    let inSection = false;
    doc.text.split('\n').forEach((line, i) => {
      if (/^#{1,6} /.test(line)) inSection = /exit codes/i.test(line);
      const m = inSection && /^\| (\d+) \| (.+) \|$/.exec(line);
      if (m) rows.push({ code: Number(m[1]), meaning: m[2]!, at: `${doc.file}:${i + 1}` });
    });
    return rows;
  });
}

export function exitCodeProblems(codes: number[], docs: Doc[]): string[] {
  const rows = exitCodeRows(docs);
  const problems = codes.flatMap((code) => {
    const at = rows.filter((r) => r.code === code).map((r) => r.at);
    return at.length === 1 ? [] : [`exit code ${code}: ${at.length} rows (${at.join(', ') || 'none'})`];
  });
  for (const row of rows)
    if (!codes.includes(row.code))
      problems.push(`${row.at}: exit code ${row.code} is not one the CLI returns`);
  return problems;
}

/** GitHub's anchor of a heading. */
export function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchorsIn(text: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  let fenced = false;
  for (const line of text.split('\n')) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    const m = !fenced && /^#{1,6} (.+)$/.exec(line);
    if (!m) continue;
    const base = anchorOf(m[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

/** Text outside fenced code blocks (links and paths in an example are not claims). */
function prose(text: string): string {
  return text.replace(/^\s*```[\s\S]*?^\s*```/gm, '');
}

/**
 * Dead relative links: the target file (from the document's folder) must exist and, with an
 * #anchor, have that heading. `existsFile` and `textOf` answer for repository-root paths.
 */
export function linkProblems(
  docs: Doc[],
  existsFile: (fromRoot: string) => boolean,
  textOf: (fromRoot: string) => string | undefined,
): string[] {
  return docs.flatMap((doc) =>
    [...prose(doc.text).matchAll(/\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].flatMap((m) => {
      const target = m[1]!;
      if (/^[a-z][a-z+.-]*:/i.test(target)) return [];
      const [file, anchor] = target.split('#') as [string, string | undefined];
      const resolved = file
        ? path.posix.normalize(path.posix.join(path.posix.dirname(doc.file), decodeURI(file)))
        : doc.file;
      if (resolved.startsWith('..')) return [`${doc.file}: link ${target} leaves the repository`];
      if (!existsFile(resolved)) return [`${doc.file}: link ${target} — ${resolved} does not exist`];
      if (anchor && resolved.endsWith('.md')) {
        const text = textOf(resolved);
        if (text !== undefined && !anchorsIn(text).has(anchor))
          return [`${doc.file}: link ${target} — ${resolved} has no heading #${anchor}`];
      }
      return [];
    }),
  );
}

/** Made by a build, an install or a run: named in the docs, not kept in the repository. */
const GENERATED =
  /^(out|dist|node_modules|native\/electron|bench\/\.work|test-results|playwright-report)(\/|$)/;
const SOURCE_EXTENSION = /\.(ts|tsx|mts|mjs|cjs|js|sh|sql|css|html|md|yml|yaml|json|png)$/;
/** A bare file name is a source file only with these (`chart.js` is a package, `document.md` an output). */
const SOURCE_FILE = /\.(ts|tsx|mts|mjs|cjs|sh|sql)$/;
const ROOT_FOLDERS = /^(src|test|scripts|docs|bench|\.ci|resources|build)\/./;

/** Documents outside the repository that the docs name by file name (the shared contract). */
const EXTERNAL = new Set(['public-model-and-media-api.md', 'application-platform-api.md']);

/**
 * The source paths a document names in backticks: repository paths (`src/…`, `test/…`, …) must
 * exist as written (from the root, or from a folder README's folder: the renderer's `src/app/`); a shorter name (`journal/db.ts`, `capabilities.ts`, as folder READMEs and the
 * architecture write them) must be the end of a path that exists. `known` holds every file and
 * folder of the repository, from its root.
 */
export function pathProblems(docs: Doc[], known: Set<string>): string[] {
  const tails = new Set<string>();
  for (const file of known) {
    const parts = file.split('/');
    for (let i = 0; i < parts.length; i++) tails.add(parts.slice(i).join('/'));
  }
  return docs.flatMap((doc) =>
    [...prose(doc.text).matchAll(/`([^`\s]+)`/g)].flatMap((m) => {
      const token = m[1]!
        .replace(/[.,;:]$/, '')
        .replace(/:\d+(-\d+)?$/, '')
        .replace(/\/$/, '');
      if (!/^[\w.@/-]+$/.test(token) || token.startsWith('/') || token.startsWith('..')) return [];
      if (GENERATED.test(token) || token.includes('//') || EXTERNAL.has(token)) return [];
      if (token.split('/').some((part) => /^[A-Z][A-Z_]*$/.test(part))) return []; // DIR/x.png: a placeholder
      const fromRoot = ROOT_FOLDERS.test(token + '/');
      const named = token.includes('/') ? SOURCE_EXTENSION : SOURCE_FILE;
      if (!fromRoot && !(named.test(token) && !token.startsWith('.'))) return [];
      const here = path.posix.join(path.posix.dirname(doc.file), token);
      const found = fromRoot ? known.has(token) || known.has(here) : tails.has(token);
      return found ? [] : [`${doc.file}: \`${m[1]}\` does not exist`];
    }),
  );
}

export interface ImportLines {
  imports: string[];
  importsShared: boolean;
  importedBy: string[];
}

/** A folder README's `**Imports** (core folders): …` and `**Imported by**: …` lines, parsed. */
export function importLinesOf(text: string): ImportLines | undefined {
  const importsLine = /^\*\*Imports\*\* \(core folders\): (.*)$/m.exec(text)?.[1];
  const importedByLine = /^\*\*Imported by\*\*: (.*)$/m.exec(text)?.[1];
  if (importsLine === undefined || importedByLine === undefined) return undefined;
  const names = (s: string): string[] =>
    [...s.replace(/\([^()]*\)(?!`)/g, '').matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
  const [coreImports, ...rest] = importsLine.split(';');
  return {
    imports: names(coreImports!),
    importsShared: rest.join(';').includes('`src/shared`'),
    importedBy: names(importedByLine).map((name) => {
      // a file outside the core stands for its folder: src/main/host/x.ts is `src/main/host`
      const parts = name.split('/');
      if (parts[0] !== 'src') return name;
      return parts[1] === 'main' && parts.length >= 3
        ? parts.slice(0, 3).join('/')
        : parts.slice(0, 2).join('/');
    }),
  };
}

/** What a folder's lines get wrong against the real graph. */
export function importLineProblems(folder: string, said: ImportLines, real: ImportLines): string[] {
  const diff = (what: string, a: string[], b: string[]): string[] => {
    const missing = b.filter((x) => !a.includes(x));
    const extra = a.filter((x) => !b.includes(x));
    return [
      ...(missing.length ? [`${folder}: "${what}" misses ${missing.join(', ')}`] : []),
      ...(extra.length ? [`${folder}: "${what}" names ${extra.join(', ')}, which it does not`] : []),
    ];
  };
  return [
    ...diff('Imports', said.imports, real.imports),
    ...(said.importsShared === real.importsShared
      ? []
      : [`${folder}: "Imports" ${real.importsShared ? 'misses' : 'names'} \`src/shared\``]),
    ...diff('Imported by', said.importedBy, real.importedBy),
  ];
}

/** The group of a file outside the core, as the READMEs name it: `src/cli`, `src/main/host`, … */
function outsideGroupOf(file: string): string {
  const parts = path.relative(SRC, file).split(path.sep);
  return parts[0] === 'main' && parts.length > 2 ? `src/main/${parts[1]}` : `src/${parts[0]}`;
}

/** The real import lines of every capability folder of the core. */
function realImportLines(): Map<string, ImportLines> {
  const lines = new Map<string, ImportLines>();
  const of = (folder: string): ImportLines => {
    if (!lines.has(folder)) lines.set(folder, { imports: [], importsShared: false, importedBy: [] });
    return lines.get(folder)!;
  };
  const add = (list: string[], name: string): void => void (list.includes(name) || list.push(name));
  for (const file of sourceFiles(SRC)) {
    const inCore = file.startsWith(CORE + path.sep);
    const from = inCore ? capabilityOf(file) : outsideGroupOf(file);
    for (const target of importsOf(file)) {
      if (inCore && target.startsWith(path.join(SRC, 'shared') + path.sep)) of(from).importsShared = true;
      if (!target.startsWith(CORE + path.sep)) continue;
      const to = capabilityOf(target);
      if (to === from) continue;
      if (inCore) add(of(from).imports, to);
      add(of(to).importedBy, from);
    }
  }
  return lines;
}

// ---------------------------------------------------------------- the checks

describe('the documentation matches the code', () => {
  const docs = allDocs();

  it('documents each environment setting the code reads once, in a settings table', () => {
    const files = ['src', 'scripts'].flatMap((d) =>
      walk(path.join(ROOT, d), (n) => /\.(ts|tsx|mts|mjs|cjs|js|sh)$/.test(n) && !n.endsWith('.d.ts')),
    );
    const names = [...new Set(files.flatMap((f) => envSettingsIn(f, fs.readFileSync(f, 'utf8'))))].sort();
    expect(names).toContain('FRAMEWRIGHT_API_KEY');
    expect(names).toContain('PLATFORM_APP_CREDENTIAL');
    expect(settingProblems(names, docs)).toEqual([]);
  });

  it('documents each CLI command once, and no command that does not exist', () => {
    const commands = commandPaths(buildProgram());
    expect(commands).toContain('sequence deliver');
    expect(commandProblems(commands, docs)).toEqual([]);
  });

  it('documents each exit code once', () => {
    expect(exitCodeProblems(Object.values(ExitCode), docs)).toEqual([]);
  });

  it('links only to files and headings that exist', () => {
    const byFile = new Map(docs.map((d) => [d.file, d.text]));
    const textOf = (f: string): string | undefined =>
      byFile.get(f) ??
      (exists(f) && f.endsWith('.md') ? fs.readFileSync(path.join(ROOT, f), 'utf8') : undefined);
    expect(linkProblems(docs, exists, textOf)).toEqual([]);
  });

  it('names only source paths that exist', () => {
    const known = new Set(
      walk(ROOT, () => true).flatMap((f) => {
        const rel = path.relative(ROOT, f).split(path.sep);
        return rel.map((_, i) => rel.slice(0, i + 1).join('/'));
      }),
    );
    expect(pathProblems(docs, known)).toEqual([]);
  });

  it('says in each core folder README what the folder imports and is imported by', () => {
    const real = realImportLines();
    const readmes = walk(CORE, (n) => n === 'README.md').map(read);
    expect(readmes.length).toBeGreaterThan(25);
    const problems = readmes.flatMap((doc) => {
      const folder = capabilityOf(path.join(ROOT, path.dirname(doc.file), 'x.ts'));
      const said = importLinesOf(doc.text);
      if (!said) return [`${doc.file}: no "**Imports** (core folders):" and "**Imported by**:" lines`];
      const truth = real.get(folder) ?? { imports: [], importsShared: false, importedBy: [] };
      const problems = importLineProblems(folder, said, truth);
      if (/^TODO\b/m.test(doc.text)) problems.push(`${doc.file}: still says TODO`);
      return problems;
    });
    expect(problems).toEqual([]);
  });
});

describe('the docs check fails on a planted error', () => {
  const doc = (file: string, text: string): Doc => ({ file, text });

  it('finds a setting read by the code with no row, and one with two', () => {
    const code =
      "const a = process.env.FRAMEWRIGHT_NEW_TIMEOUT; const b = env['PLATFORM_X']; const NAME = 'FRAMEWRIGHT_Y';";
    const names = envSettingsIn('src/x.ts', code);
    expect(names.sort()).toEqual(['FRAMEWRIGHT_NEW_TIMEOUT', 'FRAMEWRIGHT_Y', 'PLATFORM_X']);
    expect(envSettingsIn('scripts/x.sh', 'echo "${FRAMEWRIGHT_Z:-1}" $PATH')).toEqual(['FRAMEWRIGHT_Z']);
    expect(envSettingsIn('src/y.ts', "const { HTTP_TIMEOUT, QUEUE_SIZE = '4' } = process.env;")).toEqual([
      'HTTP_TIMEOUT',
      'QUEUE_SIZE',
    ]);
    const docs = [
      doc(
        'docs/settings.md',
        '| setting | what |\n|---|---|\n| `PLATFORM_X` | x |\n| `FRAMEWRIGHT_Y=1` | y |',
      ),
      doc(
        'docs/other.md',
        '| Setting | What |\n|---|---|\n| `FRAMEWRIGHT_Y` | y again |\n\nSee `FRAMEWRIGHT_NEW_TIMEOUT` in prose only.\n\n| `PLATFORM_X` | a one-row table |',
      ),
    ];
    expect(settingProblems(names, docs)).toEqual([
      expect.stringMatching(/^FRAMEWRIGHT_NEW_TIMEOUT: read by the code but has no row/),
      expect.stringMatching(/^FRAMEWRIGHT_Y: documented in 2 table rows/),
      expect.stringMatching(/^PLATFORM_X: documented in 2 table rows/),
    ]);
  });

  it('finds a command with no row, one with two and a row for no command', () => {
    const commands = ['serve', 'sequence', 'sequence new', 'jobs'];
    const docs = [
      doc(
        'docs/cli.md',
        [
          '| command | what |',
          '|---|---|',
          '| `framewright serve [--port 0]` | a |',
          '| `npx framewright sequence new <name>` | b |',
          '| `framewright sequence new` | again |',
          '| `framewright sequence` | c |',
          '| `framewright teleport` | d |',
          '',
          '| benchmark | ratio |',
          '|---|---|',
          '| `framewright jobs --json` on 100,000 jobs | 2 |',
        ].join('\n'),
      ),
    ];
    expect(commandProblems(commands, docs)).toEqual([
      'docs/cli.md:7: `framewright teleport` is not a command of the CLI',
      'framewright sequence new: documented in 2 rows (docs/cli.md:4, docs/cli.md:5)',
      'framewright jobs: a command with no row in docs/cli.md',
    ]);
  });

  it('finds an exit code with no row and a row for a code the CLI never returns', () => {
    const docs = [
      doc('docs/cli.md', '### CLI exit codes\n\n| code | meaning |\n|---|---|\n| 0 | ok |\n| 9 | ? |\n'),
    ];
    expect(exitCodeProblems([0, 1], docs)).toEqual([
      'exit code 1: 0 rows (none)',
      'docs/cli.md:6: exit code 9 is not one the CLI returns',
    ]);
  });

  it('finds a dead link, a missing heading and a link out of the repository', () => {
    const files = new Map([
      ['docs/cli.md', '# The CLI\n\n## Exit codes\n'],
      ['README.md', ''],
    ]);
    const docs = [
      doc(
        'docs/planted.md',
        [
          '[ok](cli.md#exit-codes) [ok too](../README.md) [web](https://example.com) [here](#top)',
          '# Top',
          '[dead](operators.md) [no heading](cli.md#exit-code) [out](../../shared/spec.md)',
          '```',
          '[in an example](nowhere.md)',
          '```',
        ].join('\n'),
      ),
    ];
    expect(
      linkProblems(
        docs,
        (f) => files.has(f) || f === 'docs/planted.md',
        (f) => files.get(f),
      ),
    ).toEqual([
      'docs/planted.md: link operators.md — docs/operators.md does not exist',
      'docs/planted.md: link cli.md#exit-code — docs/cli.md has no heading #exit-code',
      'docs/planted.md: link ../../shared/spec.md leaves the repository',
    ]);
    expect(anchorOf('Batches: `framewright batch`')).toBe('batches-framewright-batch');
  });

  it('finds a source path that no longer exists, from the root or from a folder README', () => {
    const files = new Set([
      'src',
      'src/cli',
      'src/cli/main.ts',
      'src/main/core/journal/db.ts',
      'src/main/core/jobs/engine.ts',
    ]);
    const docs = [
      doc(
        'docs/architecture.md',
        '`src/cli/main.ts`, `src/cli/`, `src/cli/gone.ts`, `out/cli/`, `image/png`, `/bridge/files`',
      ),
      doc('src/main/core/jobs/README.md', '`engine.ts`, `journal/db.ts`, `poller.ts`'),
    ];
    expect(pathProblems(docs, files)).toEqual([
      'docs/architecture.md: `src/cli/gone.ts` does not exist',
      'src/main/core/jobs/README.md: `poller.ts` does not exist',
    ]);
  });

  it('finds a wrong "imports / imported by" line', () => {
    const said = importLinesOf(
      [
        '**Imports** (core folders): `journal`, `debug-pairing` (the `FetchLike` type); `src/shared`.',
        '',
        '**Imported by**: `app`, `bridge`; outside the core: `src/cli`.',
      ].join('\n'),
    )!;
    expect(said).toEqual({
      imports: ['journal', 'debug-pairing'],
      importsShared: true,
      importedBy: ['app', 'bridge', 'src/cli'],
    });
    const real = { imports: ['journal', 'secrets'], importsShared: true, importedBy: ['app', 'src/cli'] };
    expect(importLineProblems('jobs', said, real)).toEqual([
      'jobs: "Imports" misses secrets',
      'jobs: "Imports" names debug-pairing, which it does not',
      'jobs: "Imported by" names bridge, which it does not',
    ]);
  });
});
