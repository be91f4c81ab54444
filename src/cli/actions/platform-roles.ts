import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { withPlatformRelease } from '../cli-developer.js';
import { ExitCode } from '../exit-codes.js';
import { printJson } from '../print-json.js';

/** `framewright platform roles [--set FILE]`: show, or replace, the application's role definitions. */
export async function runPlatformRoles(_options: unknown, command: Command): Promise<void> {
  const own = command.opts<{ set?: string }>();
  await withPlatformRelease(command, async (feature, options, json) => {
    if (own.set === undefined) {
      const { appId, roles, declared } = await feature.roles(options.appId);
      if (json) {
        printJson({ appId, roles, declared });
        return ExitCode.ok;
      }
      const out = [`application ${appId}: ${roles.length} role(s)`];
      for (const r of roles)
        out.push(`${r.roleCode}  v${r.definitionVersion}  ${r.status}  ${r.displayName} — ${r.description}`);
      const missing = declared.filter((d) => !roles.some((r) => r.roleCode === d.roleCode));
      if (missing.length)
        out.push(
          `not on the platform yet (declared by Framewright): ${missing.map((r) => r.roleCode).join(', ')}`,
        );
      process.stdout.write(out.join('\n') + '\n');
      return ExitCode.ok;
    }
    let next: unknown;
    try {
      next = JSON.parse(await readFile(own.set, 'utf8'));
    } catch {
      process.stderr.write(`framewright: --set ${own.set}: not a readable JSON file.\n`);
      return ExitCode.invalidInput;
    }
    const result = await feature.setRoles(options.appId, next);
    if (json) printJson(result);
    else
      process.stdout.write(
        result.changed.length
          ? `updated: ${result.changed.join(', ')}\n`
          : 'no change: the platform already has these definitions\n',
      );
    return ExitCode.ok;
  });
}
