/**
 * Every key of a live contract (`mediaSpecContract`, `promptOptimization`, `apiUsageContract`) is
 * read by src/shared/api/contract-vocabulary.ts, so adapting to the real gateway's names is a change
 * in one place. This test parses src/ (the simulator aside: it authors the contracts) and fails on
 * a key read anywhere else: `x.mediaSpecContract.modes`, `x.mediaSpecContract?.['modes']`,
 * `(x.mediaSpecContract as {...}).profile`, `const { modes } = x.mediaSpecContract`, or a cast of
 * the raw contract into a shape. Passing the whole object on (to a reader, or across the bridge)
 * is not a read.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(__dirname, '../../..');
const CONTRACTS = new Set(['mediaSpecContract', 'promptOptimization', 'apiUsageContract']);

/** Files allowed to read the raw contracts, each with its reason. */
const ALLOWED: Record<string, string> = {
  'src/shared/api/contract-vocabulary.ts': 'the vocabulary module itself',
};

/** The expression under parentheses, `!`, `x as T` and `x ?? {}`. */
function unwrap(node: ts.Expression): ts.Expression {
  for (;;) {
    if (ts.isParenthesizedExpression(node) || ts.isNonNullExpression(node)) node = node.expression;
    else if (ts.isAsExpression(node) || ts.isSatisfiesExpression(node)) node = node.expression;
    else if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.QuestionQuestionToken)
      node = node.left;
    else return node;
  }
}

function isRawContract(node: ts.Expression): boolean {
  const n = unwrap(node);
  if (ts.isPropertyAccessExpression(n)) return CONTRACTS.has(n.name.text);
  if (ts.isElementAccessExpression(n))
    return ts.isStringLiteralLike(n.argumentExpression) && CONTRACTS.has(n.argumentExpression.text);
  return ts.isIdentifier(n) && CONTRACTS.has(n.text);
}

/** `file:line: code` of each key read of a raw contract in `source`. */
export function contractKeyReads(fileName: string, source: string): string[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const report = (node: ts.Node): void => {
    const { line } = file.getLineAndCharacterOfPosition(node.getStart(file));
    found.push(`${fileName}:${line + 1}: ${node.getText(file).split('\n')[0]}`);
  };
  const visit = (node: ts.Node): void => {
    if (
      (ts.isPropertyAccessExpression(node) || ts.isElementAccessExpression(node)) &&
      isRawContract(node.expression)
    )
      report(node);
    else if ((ts.isAsExpression(node) || ts.isSatisfiesExpression(node)) && isRawContract(node.expression)) {
      const target = node.type.getText(file);
      if (target !== 'unknown' && target !== 'const') report(node);
    } else if (
      ts.isVariableDeclaration(node) &&
      ts.isObjectBindingPattern(node.name) &&
      node.initializer &&
      isRawContract(node.initializer)
    )
      report(node);
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

function sourceFiles(): string[] {
  return readdirSync(path.join(ROOT, 'src'), { recursive: true, encoding: 'utf8' })
    .map((f) => path.posix.join('src', f.split(path.sep).join('/')))
    .filter((f) => /\.(ts|tsx)$/.test(f) && !f.endsWith('.d.ts') && !f.startsWith('src/simulator/'));
}

describe('contract keys are read only by the vocabulary module', () => {
  it('no file outside src/shared/api/contract-vocabulary.ts reads a key of a raw contract', () => {
    const files = sourceFiles();
    expect(files.length).toBeGreaterThan(50);
    const reads = files
      .filter((f) => !Object.hasOwn(ALLOWED, f))
      .flatMap((f) => contractKeyReads(f, readFileSync(path.join(ROOT, f), 'utf8')));
    expect(reads).toEqual([]);
  });

  it('the scan sees each form of a direct read (and passes a contract handed on whole)', () => {
    const reads = (code: string) => (contractKeyReads('x.ts', code).length > 0 ? 1 : 0);
    expect(reads('const a = service.mediaSpecContract.modes;')).toBe(1);
    expect(reads("const a = service?.mediaSpecContract?.['modes'];")).toBe(1);
    expect(reads('const p = (s.mediaSpecContract as { profile?: string } | null)?.profile;')).toBe(1);
    expect(reads('const c = (s?.mediaSpecContract ?? {}) as { modes?: unknown };')).toBe(1);
    expect(reads('const { profiles } = service.promptOptimization;')).toBe(1);
    expect(reads('const t = s.apiUsageContract!.supportsTopN;')).toBe(1);
    expect(reads('const limits = resolveEffectiveLimits(s.mediaSpecContract as never);')).toBe(1);
    // handed on whole: to a reader, across the bridge, or declared in a schema
    expect(reads('const u = readApiUsage(service.apiUsageContract).supportsTopN;')).toBe(0);
    expect(reads('const row = { mediaSpecContract: obj(s.mediaSpecContract) };')).toBe(0);
    expect(reads('const S = z.object({ promptOptimization: Json.nullable() });')).toBe(0);
  });
});
