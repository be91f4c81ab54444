/**
 * The vocabulary is declared once in src/shared (see src/shared/README.md): job and intent
 * statuses in api/job-statuses.ts, the spec's H3 prompt bound in api/spec-limits.ts, wait defaults
 * in wait-defaults.ts. This test parses src/ and fails when a copy appears elsewhere: a list of
 * three or more job (or intent) statuses, the 7000 literal, or a 30-minute wait written as
 * `1800`, `30 * 60` or `30 * 60_000`. The journal's migrations keep their SQL as written.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { INTENT_STATES, JOB_STATUSES } from '../../../src/shared/api/job-statuses.js';

const ROOT = path.resolve(__dirname, '../../..');

const HOMES = new Set([
  'src/shared/api/job-statuses.ts',
  'src/shared/api/spec-limits.ts',
  'src/shared/wait-defaults.ts',
]);

/** Files with a literal of the same value but another meaning, each with its reason. */
const SAME_VALUE_OTHER_MEANING: Record<string, string> = {
  'src/main/core/journal/uploads-repository.ts':
    'DEFAULT_REUSE_SAFETY_MARGIN_MS: an asset is not reused within 30 minutes of its expiry (not a wait)',
};

function isLiteralList(node: ts.Node, vocabulary: readonly string[]): boolean {
  if (!ts.isArrayLiteralExpression(node)) return false;
  const strings = node.elements.filter(ts.isStringLiteralLike).map((e) => e.text);
  return strings.length >= 3 && strings.every((s) => vocabulary.includes(s));
}

function numberOf(node: ts.Node): number | undefined {
  if (ts.isNumericLiteral(node)) return Number(node.text);
  if (ts.isStringLiteralLike(node) && /^\d+$/.test(node.text)) return Number(node.text);
  if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.AsteriskToken) {
    const left = numberOf(node.left);
    const right = numberOf(node.right);
    return left !== undefined && right !== undefined ? left * right : undefined;
  }
  return undefined;
}

/** `file:line: text` of each copy of a vocabulary item in `source`. */
export function vocabularyCopies(fileName: string, source: string): string[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const report = (node: ts.Node, what: string): void => {
    const { line } = file.getLineAndCharacterOfPosition(node.getStart(file));
    found.push(`${fileName}:${line + 1}: ${what}: ${node.getText(file).split('\n')[0]}`);
  };
  const visit = (node: ts.Node): void => {
    if (isLiteralList(node, JOB_STATUSES)) report(node, 'job statuses');
    else if (isLiteralList(node, INTENT_STATES)) report(node, 'intent states');
    else if (ts.isNumericLiteral(node) && Number(node.text) === 7000) report(node, 'H3 prompt bound');
    else if (ts.isBinaryExpression(node) || ts.isNumericLiteral(node) || ts.isStringLiteralLike(node)) {
      const n = numberOf(node);
      const parentIsProduct =
        ts.isBinaryExpression(node.parent) && node.parent.operatorToken.kind === ts.SyntaxKind.AsteriskToken;
      if (!parentIsProduct && (n === 1800 || n === 1_800_000)) {
        report(node, '30-minute wait');
        return;
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

describe('the vocabulary is declared once', () => {
  it('finds each kind of copy (the scan works)', () => {
    expect(
      vocabularyCopies('a.ts', `const done = new Set(['succeeded', 'failed', 'canceled']);`),
    ).toHaveLength(1);
    expect(vocabularyCopies('a.ts', `z.enum(['pending_create', 'unknown', 'accepted'])`)).toHaveLength(1);
    expect(vocabularyCopies('a.ts', `const max = prompt.maxCodePoints ?? 7000;`)).toHaveLength(1);
    expect(vocabularyCopies('a.ts', `const wait = 30 * 60;`)).toHaveLength(1);
    expect(vocabularyCopies('a.ts', `req.setTimeout(30 * 60_000, stop);`)).toHaveLength(1);
    expect(vocabularyCopies('a.ts', `.option('--timeout <s>', 'limit', '1800')`)).toHaveLength(1);
    expect(
      vocabularyCopies('a.ts', `const ok = ['succeeded', 'failed'].includes(x); const n = 7001;`),
    ).toEqual([]);
  });

  it('has no copy in src/ outside its home', () => {
    const copies = sourceFiles(path.join(ROOT, 'src'))
      .map((file) => path.relative(ROOT, file).split(path.sep).join('/'))
      .filter(
        (rel) =>
          !HOMES.has(rel) &&
          !(rel in SAME_VALUE_OTHER_MEANING) &&
          !rel.startsWith('src/main/core/journal/migrations/'),
      )
      .flatMap((rel) => vocabularyCopies(rel, readFileSync(path.join(ROOT, rel), 'utf8')));
    expect(copies).toEqual([]);
  });
});
