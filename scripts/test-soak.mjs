#!/usr/bin/env node
// `npm run test:soak`: the integration and end-to-end steps three times, side by side as `npm test`
// runs them — the second time with every core also kept busy by a CPU burner — then each test that did not pass every time, by name
// (none: "No flaky test."). Builds once first, as `npm test` does. Exit 1 when any test flaked.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, openSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { playwrightTestName, playwrightTests } from './test-reports.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => path.join(root, 'node_modules', '.bin', name);
const results = path.join(root, 'test-results', 'soak');
const ROUNDS = [
  { name: 'round 1', burn: false },
  { name: 'round 2 (CPU burner on every core)', burn: true },
  { name: 'round 3', burn: false },
];

function run(command, args, env = {}) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  return result.status === 0;
}

/**
 * One busy loop per core, in child processes, until stopped — or until this process is gone: each
 * loop looks every few million turns whether its parent changed (a soak stopped by a signal left
 * its burners loading the machine for whatever ran next).
 */
const BURN = `const parent = process.ppid; for (let i = 0; ; i += 1) if ((i & 0x3fffff) === 0 && process.ppid !== parent) process.exit(0);`;
function startBurner() {
  const loops = Array.from({ length: os.availableParallelism() }, () =>
    spawn(process.execPath, ['-e', BURN], { stdio: 'ignore' }),
  );
  const stop = () => loops.forEach((loop) => loop.kill('SIGKILL'));
  // stopped by a signal: the burners go too
  for (const signal of ['SIGINT', 'SIGTERM'])
    process.once(signal, () => {
      stop();
      process.exit(130);
    });
  return stop;
}

/** Each test's outcome in a vitest JSON report: "file › name" → passed. */
function vitestOutcomes(file, into) {
  if (!existsSync(file)) return into.set(`${path.basename(file)}: no report`, false);
  const report = JSON.parse(readFileSync(file, 'utf8'));
  for (const f of report.testResults ?? []) {
    const where = path.relative(root, f.name);
    if ((f.assertionResults ?? []).length === 0) into.set(`${where}: did not load`, f.status !== 'failed');
    for (const a of f.assertionResults ?? []) into.set(`${where} › ${a.fullName}`, a.status === 'passed');
  }
  return into;
}

/** Each test's outcome in a Playwright JSON report. */
function playwrightOutcomes(file, into) {
  if (!existsSync(file)) return into.set('end-to-end: no report', false);
  for (const found of playwrightTests(JSON.parse(readFileSync(file, 'utf8')).suites))
    into.set(`test/e2e/${found.spec.file} › ${playwrightTestName(found)}`, found.test.status === 'expected');
  return into;
}

rmSync(results, { recursive: true, force: true });
mkdirSync(results, { recursive: true });
if (!run(bin('electron-vite'), ['build']) || !run(process.execPath, ['scripts/build-cli.mjs', '--strict'])) {
  console.log('The build failed: nothing was soaked.');
  process.exit(1);
}

/** A step in the keyring's D-Bus session, its output kept in `log` (the two steps run at once). */
const keyring = (command, args, env, log) =>
  new Promise((resolve) => {
    const child = spawn('bash', [path.join(root, 'scripts', 'with-keyring.sh'), command, ...args], {
      cwd: root,
      stdio: ['ignore', openSync(log, 'w'), openSync(log, 'a')],
      env: { ...process.env, FRAMEWRIGHT_KEYRING_TESTS: '1', ...env },
    });
    child.on('close', resolve);
  });
/** Test name → the outcome of each round it ran in. */
const outcomes = new Map();
for (const [i, round] of ROUNDS.entries()) {
  console.log(`\n=== ${round.name}`);
  const started = Date.now();
  const stopBurner = round.burn ? startBurner() : () => undefined;
  const env = {
    FRAMEWRIGHT_SIMULATOR_RENDER_CACHE: path.join(results, `renders-${i + 1}`),
    // as npm test runs them (scripts/test-all.mjs): films encoded at x264's ultrafast
    FRAMEWRIGHT_ENCODER_PRESET: process.env.FRAMEWRIGHT_ENCODER_PRESET || 'ultrafast',
  };
  const vitestFile = path.join(results, `integration-${i + 1}.json`);
  const playwrightFile = path.join(results, `e2e-${i + 1}.json`);
  try {
    await Promise.all([
      keyring(
        bin('vitest'),
        [
          'run',
          '--project',
          'integration',
          '--reporter=dot',
          '--reporter=json',
          `--outputFile=${vitestFile}`,
        ],
        env,
        path.join(results, `integration-${i + 1}.log`),
      ),
      keyring(
        bin('playwright'),
        ['test', '--reporter=dot,json'],
        { ...env, PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightFile },
        path.join(results, `e2e-${i + 1}.log`),
      ),
    ]);
  } finally {
    stopBurner();
  }
  const round_ = playwrightOutcomes(playwrightFile, vitestOutcomes(vitestFile, new Map()));
  for (const [name, passed] of round_) outcomes.set(name, [...(outcomes.get(name) ?? []), passed]);
  const failedHere = [...round_.values()].filter((passed) => !passed).length;
  console.log(
    `⏱ ${round.name}: ${((Date.now() - started) / 1000).toFixed(0)} s, ${round_.size} tests, ${failedHere} failed`,
  );
}

// a test that did not pass in every round (or ran in fewer rounds than the others)
const flaky = [...outcomes].filter(
  ([, runs]) => runs.length !== ROUNDS.length || runs.some((passed) => !passed),
);
console.log(`\n${outcomes.size} tests, ${ROUNDS.length} rounds.`);
if (flaky.length === 0) console.log('No flaky test.');
for (const [name, runs] of flaky)
  console.log(`  flaky: ${name} — ${runs.map((passed) => (passed ? 'passed' : 'FAILED')).join(', ')}`);
process.exit(flaky.length === 0 ? 0 : 1);
