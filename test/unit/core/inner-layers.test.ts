import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const eslint = new ESLint({ cwd: ROOT });

/** The restricted-import messages ESLint gives for `code` placed at `file` (not written to disk). */
async function refusals(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
  return result!.messages
    .filter((m) => m.ruleId === '@typescript-eslint/no-restricted-imports')
    .map((m) => m.message);
}

describe('the inner layers of the core (eslint.config.js)', () => {
  it('keeps features below the composition root, the bridge, the hosts and the CLI', async () => {
    const file = 'src/main/core/profiles/example.ts';
    for (const target of [
      '../../app/compose-core.js',
      '../../app/core-parts.js',
      '../../bridge/event-hub.js',
      '../../../../cli/cli-context.js',
      '../../../host/browser-host.js',
    ]) {
      expect(
        await refusals(file, `import { x } from '${target}';\nexport const y = x;\n`),
        target,
      ).toHaveLength(1);
    }
    // the contract's types are shared, not the bridge's runtime
    expect(
      await refusals(
        file,
        "import type { ProfileSummary } from '../../../../shared/bridge/contract.js';\nexport type S = ProfileSummary;\n",
      ),
    ).toEqual([]);
  });

  it('keeps the journal out of bridge handlers and CLI actions and commands (its vocabularies excepted)', async () => {
    for (const [file, prefix] of [
      ['src/main/core/bridge/handlers/example.ts', '../../'],
      ['src/cli/actions/example.ts', '../../main/core/'],
      ['src/cli/commands/example.ts', '../../main/core/'],
    ] as const) {
      expect(
        await refusals(
          file,
          `import { openJournal } from '${prefix}journal/open-journal.js';\nexport const o = openJournal;\n`,
        ),
        file,
      ).toHaveLength(1);
      expect(
        await refusals(
          file,
          `import type { Job } from '${prefix}journal/jobs-repository.js';\nexport type J = Job;\n`,
        ),
        file,
      ).toHaveLength(1);
      expect(
        await refusals(
          file,
          `import { JOB_STATUSES } from '${prefix}journal/vocabulary.js';\nexport const s = JOB_STATUSES;\n`,
        ),
        file,
      ).toEqual([]);
    }
  });

  it('keeps the composition root out of everything below it', async () => {
    for (const file of [
      'src/main/core/operations/example.ts',
      'src/main/core/batch/example.ts',
      'src/main/core/backends/public-api/example.ts',
      'src/main/core/jobs/example.ts',
    ]) {
      expect(
        await refusals(
          file,
          "import type { CoreParts } from '../app/core-parts.js';\nexport type C = CoreParts;\n",
        ),
        file,
      ).toHaveLength(1);
    }
    expect(
      await refusals(
        'src/main/core/bridge/handlers/example.ts',
        "import { composeFeatures } from '../../app/compose-core.js';\nexport const c = composeFeatures;\n",
      ),
    ).toHaveLength(1);
  });
});
