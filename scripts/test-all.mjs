#!/usr/bin/env node
// `npm test`: every check Framewright has, in order — system prerequisites, typecheck, lint,
// format, build, unit tests, then integration and end-to-end tests (Chromium), both inside a private
// D-Bus session with a real Secret Service, and the backend's container image built and run — then
// one plain line: "N passed, N failed".
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { firstChunkProblems } from './renderer-chunks.mjs';
import { playwrightTestName, playwrightTests } from './test-reports.mjs';
import { ensureSystemPackages } from './system-packages.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => path.join(root, 'node_modules', '.bin', name);
const results = path.join(root, 'test-results');
const only = process.argv.slice(2); // e.g. `npm test -- unit e2e` runs just those steps
let passed = 0;
let failed = 0;
const failures = [];
/** Each failed test by file and name (printed last). */
const failedNames = [];

/** Each step's wall time, printed as it ends and again in a table at the end. */
const timings = [];
/** Each test file's time, [step, file, ms]: the ten slowest are listed under the step table. */
const fileTimings = [];
const suiteStart = Date.now();
const seconds = (ms) => (ms / 1000).toFixed(1);

/** How long the last step's command took, until a check or step records it (then null). */
let lastStepMs = null;

function run(command, args, env = {}) {
  const started = Date.now();
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  lastStepMs = Date.now() - started;
  return result.status === 0;
}

/** Times a step that is not one command (the system-package check). */
function timed(fn) {
  const started = Date.now();
  const value = fn();
  lastStepMs = Date.now() - started;
  return value;
}

/** Records the last command's time under `name` (a check that ran no command of its own has none). */
function recordTime(name) {
  if (lastStepMs === null) return;
  timings.push([name, lastStepMs]);
  console.log(`⏱ ${name}: ${seconds(lastStepMs)} s`);
  lastStepMs = null;
}

/**
 * Starts a command whose output lines are printed with `label` in front (two steps run at once),
 * and resolves with whether it passed and its time in ms.
 */
function runLabelled(label, command, args, env = {}) {
  const started = Date.now();
  const child = spawn(command, args, {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  for (const stream of [child.stdout, child.stderr]) {
    let rest = '';
    stream.on('data', (chunk) => {
      const lines = (rest + chunk.toString()).split('\n');
      rest = lines.pop();
      for (const line of lines) process.stdout.write(`${label} ${line}\n`);
    });
    stream.on('end', () => rest && process.stdout.write(`${label} ${rest}\n`));
  }
  return new Promise((resolve) =>
    child.on('close', (code) => resolve({ ok: code === 0, ms: Date.now() - started })),
  );
}

/**
 * The films, deliveries and trims of the integration and end-to-end tests are encoded with x264's
 * `ultrafast` preset (about 2.4x less CPU than the product's default `veryfast` at 1080p): the tests
 * check sizes, durations, loudness, frames and file facts, none of which the preset changes. The
 * default itself is checked by test/unit/media-tools/encoder-preset.test.ts. A preset set by the
 * caller is kept (`FRAMEWRIGHT_ENCODER_PRESET=veryfast npm test` runs them at the default).
 */
const TEST_ENCODER = { FRAMEWRIGHT_ENCODER_PRESET: process.env.FRAMEWRIGHT_ENCODER_PRESET || 'ultrafast' };

/**
 * Integration and end-to-end tests run against a real, throw-away Secret Service, and with
 * FRAMEWRIGHT_KEYRING_TESTS=1 every keychain test must pass there (none falls back to its
 * "no keychain" variant).
 */
function keyringStep(label, command, args, env = {}) {
  return runLabelled(label, 'bash', [path.join(root, 'scripts', 'with-keyring.sh'), command, ...args], {
    ...env,
    FRAMEWRIGHT_KEYRING_TESTS: '1',
    // every simulator of the run renders each plan (prompt, seed, inputs) once, into one folder
    FRAMEWRIGHT_SIMULATOR_RENDER_CACHE: path.join(results, 'simulator-renders'),
    ...TEST_ENCODER,
  });
}

function check(name, ok) {
  if (ok) passed += 1;
  else {
    failed += 1;
    failures.push(name);
  }
  console.log(`${ok ? '✔' : '✘'} ${name}`);
  recordTime(name);
}

const wants = (step) => only.length === 0 || only.includes(step);

rmSync(results, { recursive: true, force: true });
mkdirSync(path.join(results, 'screenshots'), { recursive: true });

check(
  'system packages',
  timed(() => ensureSystemPackages(['app', 'test'])),
);

// The image's Debian base (mmdebstrap: mostly downloads and unpacking) is made from the start,
// beside the other steps, and cached: the image's step, last, then builds on it.
const imageBase = wants('image')
  ? runLabelled('[image base]', process.execPath, ['scripts/build-image.mjs', '--base-only'])
  : undefined;

if (wants('static')) {
  // four independent checks, each on one core: run side by side, reported in this order
  const checks = [
    [
      'typecheck (main, preload, shared, simulator, cli, tests)',
      '[tsc]',
      'tsc',
      ['-p', 'tsconfig.node.json', '--noEmit'],
    ],
    ['typecheck (renderer)', '[tsc web]', 'tsc', ['-p', 'tsconfig.web.json', '--noEmit']],
    ['eslint', '[eslint]', 'eslint', ['.']],
    ['prettier', '[prettier]', 'prettier', ['--check', '.']],
  ];
  const outcomes = await Promise.all(
    checks.map(([, label, tool, args]) => runLabelled(label, bin(tool), args)),
  );
  checks.forEach(([name], i) => {
    lastStepMs = outcomes[i].ms;
    check(name, outcomes[i].ok);
  });
}
if (wants('static') || wants('e2e') || wants('integration') || wants('image')) {
  const built = run(bin('electron-vite'), ['build']);
  check('build (main, preload, renderer bundles)', built);
  // on the build just made (a test of its own would read whatever build happened to be on disk)
  const problems = built ? firstChunkProblems(path.join(root, 'out', 'renderer')) : ['no build'];
  for (const problem of problems) console.log(`  ${problem}`);
  check(
    'renderer first chunk within budget (≤ 250 kB, ≤ 440 kB with its preloads, no zod)',
    problems.length === 0,
  );
  check('build (the CLI bundle)', run(process.execPath, ['scripts/build-cli.mjs', '--strict']));
}

function countVitest(file) {
  if (!existsSync(file)) return { passed: 0, failed: 1 };
  const report = JSON.parse(readFileSync(file, 'utf8'));
  // a file that fails to load counts as a failure even when it ran no test
  const brokenFiles = (report.testResults ?? []).filter(
    (f) => f.status === 'failed' && (f.assertionResults ?? []).length === 0,
  ).length;
  for (const file of report.testResults ?? []) {
    const where = path.relative(root, file.name);
    if (file.startTime && file.endTime) fileTimings.push([where, file.endTime - file.startTime]);
    if (file.status === 'failed' && (file.assertionResults ?? []).length === 0)
      failedNames.push(`${where}: did not load — ${firstLine(file.message)}`);
    for (const a of file.assertionResults ?? [])
      if (a.status === 'failed')
        failedNames.push(`${where} › ${a.fullName} — ${firstLine((a.failureMessages ?? []).join('\n'))}`);
  }
  return { passed: report.numPassedTests, failed: report.numFailedTests + brokenFiles };
}

/** The first line of a failure's message, shortened: enough to find it in the log above. */
function firstLine(message) {
  const line =
    String(message ?? '')
      .replace(new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g'), '')
      .split('\n')
      .find((l) => l.trim()) ?? '';
  return line.trim().slice(0, 300);
}

/** Adds up each Playwright spec file's test durations (every retry and hook included in a result). */
function playwrightFileTimes(suites, totals = new Map()) {
  for (const { spec, test } of playwrightTests(suites))
    for (const result of test.results ?? [])
      totals.set(spec.file, (totals.get(spec.file) ?? 0) + (result.duration ?? 0));
  return totals;
}

/** Every Playwright test whose outcome was unexpected or flaky, with its file and title. */
function failedPlaywrightTests(suites) {
  for (const found of playwrightTests(suites)) {
    const { spec, test } = found;
    if (test.status !== 'unexpected' && test.status !== 'flaky') continue;
    const error = (test.results ?? []).map((r) => r.error?.message).find(Boolean);
    failedNames.push(
      `${spec.file}:${spec.line} › ${playwrightTestName(found)} (${test.status}) — ${firstLine(error)}`,
    );
  }
}

// the unit step is two projects: `unit` (one module graph per worker) and `unit-isolated`
const projectsOf = (step) => (step === 'unit' ? ['unit', 'unit-isolated'] : [step]);
const vitestArgs = (project) => [
  'run',
  ...projectsOf(project).flatMap((name) => ['--project', name]),
  '--reporter=default',
  '--reporter=json',
  `--outputFile=${path.join(results, `vitest-${project}.json`)}`,
];

/** Adds a vitest step's counts; names a runner that failed without a failed test. */
function countVitestStep(project, ok) {
  const counts = countVitest(path.join(results, `vitest-${project}.json`));
  passed += counts.passed;
  failed += counts.failed;
  if (!ok && counts.failed === 0) check(`${project} tests (runner exited with an error)`, false);
  else if (counts.failed > 0) failures.push(`${counts.failed} ${project} test(s)`);
}

if (wants('unit')) {
  const ok = run(bin('vitest'), vitestArgs('unit'));
  recordTime('unit tests');
  countVitestStep('unit', ok);
}

// Integration and end-to-end tests run at the same time: both mostly wait on their own simulators,
// servers, ffmpeg and Chromium, and together they keep the two cores busy (measured: 667 s for both
// against 399 s + 400 s one after the other). Each line they print starts with its step's label.
const integration = wants('integration')
  ? keyringStep('[integration]', bin('vitest'), vitestArgs('integration'))
  : undefined;
const e2eReport = path.join(results, 'playwright.json');
const endToEnd = wants('e2e')
  ? keyringStep('[e2e]', bin('playwright'), ['test', '--reporter=list,json'], {
      PLAYWRIGHT_JSON_OUTPUT_NAME: e2eReport,
    })
  : undefined;
// The backend's image (built twice by its test, on the base made above) and run as a container:
// once the integration or the end-to-end tests have ended (whichever first), which leaves a core
// free for it beside the other's tail.
// (at once when neither runs, e.g. `npm test -- image`: a race of nothing would never end)
const testSteps = [integration, endToEnd].filter(Boolean);
const firstTestStepDone = testSteps.length > 0 ? Promise.race(testSteps) : Promise.resolve();
const image = imageBase
  ? Promise.all([imageBase, firstTestStepDone]).then(() =>
      runLabelled('[image]', bin('vitest'), vitestArgs('image'), {
        FRAMEWRIGHT_SIMULATOR_RENDER_CACHE: path.join(results, 'simulator-renders'),
      }),
    )
  : undefined;
if (integration) {
  const { ok, ms } = await integration;
  lastStepMs = ms;
  recordTime('integration tests (beside the end-to-end tests)');
  countVitestStep('integration', ok);
}
if (endToEnd) {
  const outputFile = e2eReport;
  const { ok, ms } = await endToEnd;
  lastStepMs = ms;
  recordTime('end-to-end tests (beside the integration tests)');
  if (existsSync(outputFile)) {
    const report = JSON.parse(readFileSync(outputFile, 'utf8'));
    const stats = report.stats ?? {};
    failedPlaywrightTests(report.suites);
    for (const [file, ms] of playwrightFileTimes(report.suites))
      fileTimings.push([path.join('test/e2e', file), ms]);
    passed += stats.expected ?? 0;
    failed += (stats.unexpected ?? 0) + (stats.flaky ?? 0);
    if ((stats.unexpected ?? 0) > 0) failures.push(`${stats.unexpected} end-to-end test(s)`);
    if (!ok && !(stats.unexpected > 0)) check('end-to-end run (runner exited with an error)', false);
  } else check('end-to-end run (no report)', false);
}

if (imageBase) {
  const { ok, ms } = await imageBase;
  lastStepMs = ms;
  check("the image's Debian base (from the start, beside the other steps)", ok);
}
if (image) {
  const { ok, ms } = await image;
  lastStepMs = ms;
  recordTime('the backend image: built twice and run (after the first of the two test steps)');
  countVitestStep('image', ok);
}

console.log('\nTime per step (seconds):');
for (const [name, ms] of timings) console.log(`  ${seconds(ms).padStart(7)}  ${name}`);
console.log(`  ${seconds(Date.now() - suiteStart).padStart(7)}  in all`);
if (fileTimings.length) {
  // integration files run two at a time, so their times add up to more than the step's wall time
  console.log('\nThe ten slowest test files (seconds):');
  for (const [file, ms] of [...fileTimings].sort((a, b) => b[1] - a[1]).slice(0, 10))
    console.log(`  ${seconds(ms).padStart(7)}  ${file}`);
}
if (failures.length) console.log(`\nFailed: ${failures.join('; ')}`);
// named again at the very end: a CI log that keeps only its tail still says which test failed
for (const name of failedNames) console.log(`  ✗ ${name}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
