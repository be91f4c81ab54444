import { spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import type { Metafile } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildCli } from '../../../scripts/build-cli.mjs';
import { tempFolder } from '../../support/worlds/temp-folder.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');

/**
 * A copy of the project (sources, bin, package.json) whose node_modules links every installed
 * package but tsx: there only the built bundle can run the CLI, until tsx is linked in.
 */
let project: string;
let dataDir: string;

function framewright(args: string[]) {
  const run = spawnSync(process.execPath, [path.join(project, 'bin', 'framewright.js'), ...args], {
    cwd: project,
    env: { ...process.env, FRAMEWRIGHT_API_KEY: '' },
    encoding: 'utf8',
  });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** Every source the entry chunk loads before any command runs (its static imports, transitively). */
function loadedAtStart(metafile: Metafile, entry: string): { inputs: string[]; external: string[] } {
  const seen = new Set<string>();
  const inputs = new Set<string>();
  const external = new Set<string>();
  const visit = (output: string) => {
    if (seen.has(output)) return;
    seen.add(output);
    const chunk = metafile.outputs[output]!;
    for (const input of Object.keys(chunk.inputs)) inputs.add(input);
    for (const imported of chunk.imports) {
      if (imported.kind === 'dynamic-import') continue;
      if (imported.external) external.add(imported.path);
      else visit(imported.path);
    }
  };
  visit(entry);
  return { inputs: [...inputs], external: [...external] };
}

beforeAll(() => {
  project = tempFolder('framewright-cli-bundle-');
  dataDir = path.join(project, 'data');
  for (const item of ['src', 'bin', 'scripts', 'package.json'])
    cpSync(path.join(ROOT, item), path.join(project, item), { recursive: true });
  mkdirSync(path.join(project, 'node_modules'));
  for (const name of readdirSync(path.join(ROOT, 'node_modules'))) {
    if (name === 'tsx' || name === '.bin') continue;
    symlinkSync(path.join(ROOT, 'node_modules', name), path.join(project, 'node_modules', name));
  }
});

describe('the framewright CLI as a built bundle', () => {
  it('runs from the bundle without tsx, and loads only the declarations before a command runs', async () => {
    // without a bundle and without tsx the CLI cannot start: the copy really lacks tsx
    expect(framewright(['--version']).code).not.toBe(0);

    const { metafile } = await buildCli({ root: project });
    expect(framewright(['--version'])).toMatchObject({ code: 0, stdout: '0.1.0\n' });
    const help = framewright(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/jobs \[options\]\s+list jobs in the journal/);
    // the project folder is found from the bundle's own location (out/cli/chunks)
    expect(framewright(['serve', '--help']).stdout).toContain(
      JSON.stringify(path.join(project, 'out', 'renderer')),
    );
    // a command's code is loaded when it runs: the journal opens, with its native module
    const jobs = framewright(['--data-dir', dataDir, '--json', 'jobs']);
    expect(jobs.stderr).toBe('');
    expect(JSON.parse(jobs.stdout)).toEqual({ object: 'list', data: [], nextCursor: null });

    // bad input to the journal-only listing is reported as by every command
    const badStatus = framewright(['--data-dir', dataDir, '--json', 'jobs', '--status', 'nope']);
    expect(badStatus.code).toBe(2);
    expect(JSON.parse(badStatus.stdout)).toMatchObject({ error: { code: 'usage' }, exitCode: 2 });
    expect(framewright(['--data-dir', dataDir, '--profile', 'nobody', 'jobs'])).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/nobody/),
    });

    const atStart = loadedAtStart(metafile, 'out/cli/framewright.js');
    expect(atStart.inputs).toContain('src/cli/commands/jobs.ts');
    // from the core and the API, only import-free vocabularies and paths, and the media settings'
    // check (a wrong value stops every command at start; it imports only Node's own modules);
    // nothing of the simulator
    expect(
      atStart.inputs.filter((input) => /^src\/(main|simulator|shared\/api)\//.test(input)).sort(),
    ).toEqual([
      'src/main/core/app/source-paths.ts',
      'src/main/core/batch/batch-vocabulary.ts',
      'src/main/core/journal/pagination.ts',
      'src/main/core/journal/vocabulary.ts',
      'src/main/core/media-tools/film-encoding.ts',
      'src/main/core/media-tools/media-setting-error.ts',
      'src/main/core/media-tools/media-settings.ts',
      'src/main/core/media-tools/tool-environment.ts',
      'src/main/core/media-tools/tool-priority.ts',
      'src/shared/api/job-statuses.ts',
      'src/shared/api/simulator-scenarios.ts',
    ]);
    expect(atStart.inputs.some((input) => input.startsWith('src/cli/actions/'))).toBe(false);
    expect(atStart.external.filter((name) => !name.startsWith('node:'))).toEqual([]);

    // `jobs` loads the journal and nothing else of the core: no engine, platform client or schemas
    // (the job views' import-free helpers aside: verification, estimates, errors, a bounded map)
    const jobsChunk = Object.keys(metafile.outputs).find((output) =>
      Object.keys(metafile.outputs[output]!.inputs).includes('src/cli/actions/jobs-list.ts'),
    )!;
    const forJobs = loadedAtStart(metafile, jobsChunk);
    expect(
      forJobs.inputs.filter(
        (input) =>
          /^src\/(main|simulator|shared\/api)\//.test(input) &&
          !/^src\/main\/core\/(journal\/|library\/(job-views|media-urls)\.ts|jobs\/(verification|expected-duration)\.ts|errors\.ts|bounded-map\.ts|app\/data-dir\.ts)/.test(
            input,
          ) &&
          input !== 'src/shared/api/job-statuses.ts',
      ),
    ).toEqual([]);
    expect(forJobs.external.filter((name) => !name.startsWith('node:'))).toEqual(['better-sqlite3']);
  });

  it('runs the sources through tsx once one is newer than the bundle, saying nothing on stdout', () => {
    symlinkSync(path.join(ROOT, 'node_modules', 'tsx'), path.join(project, 'node_modules', 'tsx'));
    const version = path.join(project, 'src', 'shared', 'app-version.ts');
    writeFileSync(
      version,
      readFileSync(version, 'utf8').replace(/APP_VERSION = '[^']*'/, "APP_VERSION = '9.9.9-dev'"),
    );
    expect(framewright(['--version'])).toMatchObject({ code: 0, stdout: '9.9.9-dev\n', stderr: '' });
    // and without a bundle at all
    rmSync(path.join(project, 'out', 'cli'), { recursive: true });
    expect(framewright(['--version'])).toMatchObject({ code: 0, stdout: '9.9.9-dev\n', stderr: '' });
  });

  it('says in one line when the bundle cannot be built: the install goes on, a build fails', () => {
    const main = path.join(project, 'src', 'cli', 'main.ts');
    writeFileSync(main, readFileSync(main, 'utf8') + '\nexport const broken = ;\n');
    const build = (args: string[]) =>
      spawnSync(process.execPath, [path.join(project, 'scripts', 'build-cli.mjs'), ...args], {
        cwd: project,
        encoding: 'utf8',
      });
    const install = build([]);
    expect(install.status).toBe(0);
    expect(install.stdout).toMatch(
      /^The framewright CLI was not built \(.+\); it runs from the sources through tsx\.\n$/,
    );
    expect(existsSync(path.join(project, 'out', 'cli'))).toBe(false);
    expect(build(['--strict']).status).toBe(1);
  });
});
