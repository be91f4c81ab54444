import type { Command } from 'commander';
import { withPlatformRelease } from '../cli-developer.js';
import { ExitCode } from '../exit-codes.js';
import { printJson } from '../print-json.js';

/** `framewright platform status`: the application's versions and their requests. */
export async function runPlatformStatus(_options: unknown, command: Command): Promise<void> {
  await withPlatformRelease(command, async (feature, options, json) => {
    const status = await feature.status(options.appId);
    if (json) {
      printJson(status);
      return ExitCode.ok;
    }
    const out: string[] = [`application ${status.appId}: ${status.versions.length} version(s)`];
    for (const v of status.versions) {
      out.push(`${v.versionId}  ${v.displayVersion}  ${v.status}${v.active ? ' (active)' : ''}`);
      for (const r of v.requests)
        out.push(`    ${r.kind} request ${r.requestId}: ${r.status}${r.reason ? ` — ${r.reason}` : ''}`);
    }
    process.stdout.write(out.join('\n') + '\n');
    return ExitCode.ok;
  });
}
