/**
 * The platform backend under load (issue 27 §5): `framewright serve --platform` in its own process
 * against the simulator's platform surfaces (`platform-simulator.ts`, another process), with
 * `BENCH_PLATFORM_PEOPLE` people (default 50) signed in at once through the real sign-in route,
 * each from its own loopback address with its own cookie and CSRF token.
 *
 * Each person loops for `BENCH_PLATFORM_SECONDS` (default 20) over what the studio's page does:
 * create an image job through the bridge (`playground.image.generate`, which answers once the
 * result is stored) and, while it is under way, poll the list of jobs and the library every
 * 500 ms; then read the new job and open its result. The bridge call's figures are the quick
 * calls (list jobs, poll a job, browse the library); the creation, which waits for the platform's
 * job, and the result's download are reported beside them.
 *
 * Phases, in one run: one person alone (the baseline; half the duration), then everyone, then
 * everyone with `BENCH_PLATFORM_JUNK` (default 8) junk clients alongside (`platform-junk.ts`, its
 * own process): random cookies and junk launch codes in a tight loop, whose 400/401/403/429 are
 * the answers expected for them. Rows: the bridge call's p50 with everyone against one person
 * alone, its p95 with the junk clients against without, and the backend's resident memory per
 * signed-in person above its own at rest after starting. Any error of a person (an HTTP status
 * other than 200, a bridge answer that is not ok, a job that did not succeed, a result missing from
 * the list or library) or any answer to a junk client other than a refusal fails every row, and
 * the first ones are printed. Every figure goes to `bench/.work/platform.json`.
 *
 * And the flood (issue 37, `platform-flood.ts`; `BENCH_PLATFORM_FLOOD=0` leaves it out), the fourth
 * phase of each cycle: the first person floods assembly and drafts for a segment while the others
 * keep their rounds, and the backend finishes the renders it accepted (no ffmpeg for a second) and
 * the machine writes them out (`sync`) before the next phase; the row is the others' bridge call
 * p95 over both segments against 50 ms, beside the most ffmpeg runs seen at once.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import type http from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { PLATFORM_CSRF_HEADER, PLATFORM_SESSION_PATH } from '../src/shared/bridge/platform-host-protocol.js';
import { percentile, type BenchRow } from './measure.js';
import { clientAgent, send } from './platform-client.js';
import { ffmpegSampler, flood, noFfmpegFor, prepareFlood, type FloodAnswers } from './platform-flood.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const WORK = path.resolve(import.meta.dirname, '.work');
const APP_KEY = 'framewright-studio';

const PEOPLE = Math.max(1, Number(process.env.BENCH_PLATFORM_PEOPLE ?? 50));
const SECONDS = Math.max(2, Number(process.env.BENCH_PLATFORM_SECONDS ?? 20));
const JUNK = Math.max(0, Number(process.env.BENCH_PLATFORM_JUNK ?? 8));
const FLOOD = process.env.BENCH_PLATFORM_FLOOD !== '0' && PEOPLE > 1;
/** How often a page polls its jobs and library while a job is under way. */
const POLL_MS = 500;
/** Each phase runs this many times, alternating with the others. */
const CYCLES = 2;
/** The goals, as ratios against this run's own baselines (the README's table says why). */
const GOALS = { crowdP50: 10, junkP95: 2, mibPerPerson: 8, floodP95Ms: 50 };

/** The kinds of call a person makes; "a bridge call" is one of the three quick ones. */
const QUICK = ['list jobs', 'poll a job', 'browse the library'] as const;
type Kind = (typeof QUICK)[number] | 'create an image job' | 'open a result' | 'flood';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A free port on loopback, so the public origin is known before the backend listens. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

// ---- what each phase records ---------------------------------------------------------------------

class Recorder {
  readonly samples = new Map<Kind, number[]>();
  readonly errors: string[] = [];
  calls = 0;
  jobs = 0;
  /** Time spent in this phase's loops, over all its segments. */
  elapsedMs = 0;

  add(kind: Kind, ms: number): void {
    this.calls += 1;
    const list = this.samples.get(kind) ?? this.samples.set(kind, []).get(kind)!;
    list.push(ms);
  }

  of(...kinds: Kind[]): number[] {
    return kinds.flatMap((kind) => this.samples.get(kind) ?? []);
  }

  summary() {
    const quick = this.of(...QUICK);
    const seconds = this.elapsedMs / 1000;
    return {
      seconds,
      bridgeCalls: quick.length,
      bridgeP50: percentile(quick, 50),
      bridgeP95: percentile(quick, 95),
      calls: this.calls,
      callsPerSecond: this.calls / seconds,
      jobsPerSecond: this.jobs / seconds,
      errors: this.errors.length,
      kinds: Object.fromEntries(
        [...this.samples].map(([kind, values]) => [
          kind,
          { count: values.length, p50: percentile(values, 50), p95: percentile(values, 95) },
        ]),
      ),
    };
  }
}

type Summary = ReturnType<Recorder['summary']>;

/** A signed-in person: their own address and connections (two, as a page), cookie and CSRF token. */
class Person {
  private readonly agent: http.Agent;
  cookie = '';
  csrf = '';
  round = 0;

  constructor(
    readonly name: string,
    address: string,
    private readonly origin: URL,
  ) {
    this.agent = clientAgent(address, 2);
  }

  /** Opens the application with a launch code, as the page does; the sign-in's time in ms. */
  async signIn(launchCode: string): Promise<number> {
    const start = performance.now();
    const post = (body: unknown) =>
      send(
        this.agent,
        new URL(PLATFORM_SESSION_PATH, this.origin),
        'POST',
        { origin: this.origin.origin, 'content-type': 'application/json' },
        JSON.stringify(body),
      );
    let answer = await post({ launchCode });
    // the person confirms whom the link signs in (login CSRF), as the page asks them to
    if (answer.status === 409) {
      const { error } = JSON.parse(answer.body.toString()) as {
        error: { details: { confirmToken: string } };
      };
      answer = await post({ confirmToken: error.details.confirmToken, confirm: true });
    }
    const ms = performance.now() - start;
    if (answer.status !== 200) throw new Error(`${this.name}: sign-in answered ${answer.status}`);
    this.csrf = (JSON.parse(answer.body.toString()) as { result: { csrfToken: string } }).result.csrfToken;
    this.cookie = String(answer.headers['set-cookie']?.[0] ?? '').split(';')[0]!;
    return ms;
  }

  /** One bridge call, timed under `kind`; throws on anything but an ok answer. */
  async call<T>(kind: Kind, recorder: Recorder, method: string, params: unknown): Promise<T> {
    const start = performance.now();
    const answer = await send(
      this.agent,
      new URL('/bridge/invoke', this.origin),
      'POST',
      {
        origin: this.origin.origin,
        cookie: this.cookie,
        [PLATFORM_CSRF_HEADER]: this.csrf,
        'content-type': 'application/json',
      },
      JSON.stringify({ method, params }),
    );
    recorder.add(kind, performance.now() - start);
    if (answer.status !== 200) throw new Error(`${method} answered HTTP ${answer.status}`);
    const reply = JSON.parse(answer.body.toString()) as
      { ok: true; result: T } | { ok: false; error: { code: string; message: string } };
    if (!reply.ok) throw new Error(`${method}: ${reply.error.code} ${reply.error.message}`);
    return reply.result;
  }

  /** A GET of the person's own media (the result the library shows), timed; its byte count. */
  async open(recorder: Recorder, pathAndQuery: string): Promise<number> {
    const start = performance.now();
    const answer = await send(this.agent, new URL(pathAndQuery, this.origin), 'GET', {
      cookie: this.cookie,
    });
    recorder.add('open a result', performance.now() - start);
    if (answer.status !== 200) throw new Error(`GET ${pathAndQuery.split('?')[0]} answered ${answer.status}`);
    return answer.body.length;
  }

  close(): void {
    this.agent.destroy();
  }
}

interface JobView {
  rowId: number;
  jobId: string;
  status: string;
}

/**
 * One round of the studio's work: create an image job and, until it answers, poll the jobs and
 * the library every POLL_MS; then read the new job, find it in the library, open its result.
 */
async function round(person: Person, recorder: Recorder): Promise<void> {
  person.round += 1;
  let creating = true;
  const created = person
    .call<{ state: string; jobId: string; outputs: { url: string }[] }>(
      'create an image job',
      recorder,
      'playground.image.generate',
      // one prompt and seed for everyone: the simulator renders it once and serves the same file,
      // so its own rendering stays out of the figures; each job is still created, run, downloaded,
      // verified and stored by the backend for its person
      { model: 'lumen-image', prompt: 'A paper boat on a pond', seed: 7, inputFileIds: [] },
    )
    .finally(() => (creating = false));
  const polling = (async () => {
    while (creating) {
      await person.call('list jobs', recorder, 'jobs.list', { limit: 50 });
      await person.call('browse the library', recorder, 'library.list', {});
      await Promise.race([sleep(POLL_MS), created.catch(() => undefined)]);
    }
  })();
  const [job, polled] = await Promise.allSettled([created, polling]);
  if (job.status === 'rejected') throw job.reason;
  if (polled.status === 'rejected') throw polled.reason;
  const result = job.value;
  if (result.state !== 'succeeded') throw new Error(`the image job ended ${result.state}`);
  recorder.jobs += 1;
  const listed = await person.call<{ items: JobView[] }>('list jobs', recorder, 'jobs.list', { limit: 50 });
  const row = listed.items.find((item) => item.jobId === result.jobId);
  if (!row) throw new Error('the new job is not in the list of jobs');
  const read = await person.call<JobView>('poll a job', recorder, 'jobs.get', { jobRowId: row.rowId });
  if (read.status !== 'succeeded') throw new Error(`the new job reads ${read.status}`);
  const library = await person.call<{ items: JobView[] }>('browse the library', recorder, 'library.list', {});
  if (!library.items.some((item) => item.jobId === result.jobId))
    throw new Error('the new result is not in the library');
  const url = result.outputs[0]?.url;
  if (!url) throw new Error('the new job has no output');
  if ((await person.open(recorder, url)) === 0) throw new Error('the result is empty');
}

/** Each person loops until `until` (a round under way finishes); errors are recorded, not thrown. */
async function loop(people: Person[], recorder: Recorder, until: number): Promise<void> {
  const start = performance.now();
  await Promise.all(
    people.map(async (person) => {
      while (performance.now() < until) {
        try {
          await round(person, recorder);
        } catch (error) {
          recorder.errors.push(`${person.name}, round ${person.round}: ${(error as Error).message}`);
          await sleep(200); // the error is counted; the person goes on after a breath
        }
      }
    }),
  );
  recorder.elapsedMs += performance.now() - start;
}

// ---- the processes -------------------------------------------------------------------------------

interface SimulatorInfo {
  token: string;
  platform: {
    runtimeBaseUrl: string;
    sessionBaseUrl: string;
    launchUrl: string;
    apps: { appKey: string; appCredential: string }[];
  };
}

/** A child process: its lines on stdout as they are asked for, the last 200 lines of its stderr. */
interface Child {
  process: ChildProcess;
  /** The next line on stdout not yet taken (undefined once stdout has ended). */
  nextStdout(): Promise<string | undefined>;
  stderrTail: string[];
  /** Lines on stderr (the backend's log is on stdout). */
  otherStderr: string[];
}

function startChild(args: string[], env: NodeJS.ProcessEnv): Child {
  const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const stderrTail: string[] = [];
  const otherStderr: string[] = [];
  createInterface({ input: child.stderr! }).on('line', (line) => {
    stderrTail.push(line);
    if (stderrTail.length > 200) stderrTail.shift();
    if (otherStderr.length < 50) otherStderr.push(line);
  });
  // stdout is read all the time (a child blocks once a pipe nobody reads is full); the first
  // lines wait to be taken (up to 100: the backend's log lines after them are dropped)
  const waiting: string[] = [];
  const takers: ((line: string | undefined) => void)[] = [];
  let ended = false;
  const stdout = createInterface({ input: child.stdout! });
  stdout.on('line', (line) => {
    const taker = takers.shift();
    if (taker) taker(line);
    else if (waiting.length < 100) waiting.push(line);
  });
  stdout.on('close', () => {
    ended = true;
    for (const taker of takers.splice(0)) taker(undefined);
  });
  const nextStdout = () =>
    waiting.length > 0 || ended
      ? Promise.resolve(waiting.shift())
      : new Promise<string | undefined>((resolve) => takers.push(resolve));
  return { process: child, nextStdout, stderrTail, otherStderr };
}

/** The child's next line on stdout, or an error (with its last stderr) when it exits or is too slow. */
async function nextLine(child: Child, what: string, timeoutMs = 120_000): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  try {
    const line = await Promise.race([
      child.nextStdout(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`${what}: nothing within ${timeoutMs / 1000} s`)),
          timeoutMs,
        );
      }),
    ]);
    if (line === undefined) throw new Error(`${what} exited: ${child.stderrTail.slice(-5).join(' | ')}`);
    return line;
  } finally {
    clearTimeout(timer);
  }
}

async function stop(child: Child | undefined): Promise<void> {
  const proc = child?.process;
  if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  proc.kill('SIGTERM');
  const timer = setTimeout(() => proc.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

/** Resident memory of a process now and its high-water mark (`/proc/<pid>/status`), in MiB. */
function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rss: kib('VmRSS') / 1024, peak: kib('VmHWM') / 1024 };
}

/** CPU seconds a process has used, user + system (`/proc/<pid>/stat`, 100 ticks a second). */
function cpuSecondsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** Samples the backend's resident memory every 100 ms; `take` answers the peak since the last take. */
function memorySampler(pid: number) {
  let peak = 0;
  const timer = setInterval(() => {
    try {
      peak = Math.max(peak, memoryOf(pid).rss);
    } catch {
      // the process is gone: the next take throws
    }
  }, 100);
  return {
    take() {
      const value = Math.max(peak, memoryOf(pid).rss);
      peak = 0;
      return value;
    },
    stop: () => clearInterval(timer),
  };
}

/** CPU seconds of the backend, the simulator and this process (the clients) per phase. */
function cpuMeter(backend: number, simulator: number) {
  const now = () => ({
    backend: cpuSecondsOf(backend),
    simulator: cpuSecondsOf(simulator),
    clients: process.cpuUsage().user / 1e6 + process.cpuUsage().system / 1e6,
  });
  let last = now();
  return () => {
    const current = now();
    const used = {
      backend: current.backend - last.backend,
      simulator: current.simulator - last.simulator,
      clients: current.clients - last.clients,
    };
    last = current;
    return used;
  };
}

/** Whether `bin/framewright.js` runs the built bundle (as `npm run bench` builds it) or the sources. */
function runsBundle(): boolean {
  try {
    const info = JSON.parse(readFileSync(path.join(ROOT, 'out/cli/build-info.json'), 'utf8')) as {
      inputs: string[];
      builtAtMs: number;
    };
    return info.inputs.every((input) => statSync(path.join(ROOT, input)).mtimeMs <= info.builtAtMs);
  } catch {
    return false;
  }
}

async function launchCode(sim: SimulatorInfo, user: string): Promise<string> {
  const answer = await fetch(sim.platform.launchUrl, {
    method: 'POST',
    headers: { authorization: `Bearer ${sim.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ appKey: APP_KEY, user }),
  });
  if (answer.status !== 200) throw new Error(`launch of ${user}: HTTP ${answer.status}`);
  return ((await answer.json()) as { runtime: { launchCode: string } }).runtime.launchCode;
}

/** Person i's address, 127.0.0.12 onwards: each person a client of its own, as on 50 machines. */
const personAddress = (i: number) => `127.0.${Math.floor((10 + i) / 250)}.${((10 + i) % 250) + 2}`;

const ms = (value: number) => (Number.isFinite(value) ? `${value.toFixed(1)} ms` : '—');
const mib = (value: number) => `${value.toFixed(0)} MiB`;

// ---- the bench -----------------------------------------------------------------------------------

export async function benchPlatform(): Promise<BenchRow[]> {
  const loadAverageAtStart = os.loadavg();
  const runDir = path.join(WORK, `platform-${process.pid}`);
  rmSync(runDir, { recursive: true, force: true });
  mkdirSync(runDir, { recursive: true });
  let simulator: Child | undefined;
  let backend: Child | undefined;
  let junk: Child | undefined;
  const people: Person[] = [];
  try {
    simulator = startChild(['--import', 'tsx', path.join(import.meta.dirname, 'platform-simulator.ts')], {
      ...process.env,
      // one more than the people: someone who opens the application while the junk clients run
      BENCH_PEOPLE: String(PEOPLE + 1),
      BENCH_TIME_SCALE: '0.01',
    });
    const sim = JSON.parse(await nextLine(simulator, 'the simulator')) as SimulatorInfo;
    const app = sim.platform.apps.find((a) => a.appKey === APP_KEY)!;

    const port = await freePort();
    const origin = new URL(`http://127.0.0.1:${port}`);
    const rendererDir = path.join(runDir, 'renderer');
    mkdirSync(rendererDir, { recursive: true });
    writeFileSync(path.join(rendererDir, 'index.html'), '<!doctype html><title>Framewright</title>');
    const bundle = runsBundle();
    const startedAt = performance.now();
    backend = startChild(
      [
        // e.g. `--cpu-prof --cpu-prof-dir=…` to see where the backend's time goes
        ...(process.env.BENCH_BACKEND_NODE_ARGS?.split(' ').filter(Boolean) ?? []),
        path.join(ROOT, 'bin/framewright.js'),
        'serve',
        '--platform',
        '--port',
        String(port),
        '--data-dir',
        path.join(runDir, 'data'),
        '--renderer-dir',
        rendererDir,
      ],
      {
        PATH: process.env.PATH ?? '',
        HOME: runDir,
        PLATFORM_APP_RUNTIME_BASE_URL: sim.platform.runtimeBaseUrl,
        PLATFORM_APP_SESSION_BASE_URL: sim.platform.sessionBaseUrl,
        PLATFORM_APP_KEY: APP_KEY,
        PLATFORM_APP_CREDENTIAL: app.appCredential,
        FRAMEWRIGHT_PUBLIC_URL: origin.origin,
        // a deployment's tuning of Node's file-system threads, when the bench is asked to try one
        ...(process.env.UV_THREADPOOL_SIZE ? { UV_THREADPOOL_SIZE: process.env.UV_THREADPOOL_SIZE } : {}),
        // and of the media tools' CPU priority (idle, low, normal)
        ...(process.env.FRAMEWRIGHT_MEDIA_PRIORITY
          ? { FRAMEWRIGHT_MEDIA_PRIORITY: process.env.FRAMEWRIGHT_MEDIA_PRIORITY }
          : {}),
      },
    );
    await nextLine(backend, 'framewright serve --platform');
    const startMs = performance.now() - startedAt;
    const pid = backend.process.pid!;
    await sleep(500);
    const atRest = memoryOf(pid).rss;
    const memory = memorySampler(pid);
    const cpu = cpuMeter(pid, simulator.process.pid!);
    const loopDelay = monitorEventLoopDelay({ resolution: 10 });
    loopDelay.enable();
    const clientDelay = () => {
      const p99 = loopDelay.percentile(99) / 1e6;
      loopDelay.reset();
      return p99;
    };

    for (let i = 0; i < PEOPLE; i += 1) people.push(new Person(`bench${i + 1}`, personAddress(i), origin));
    const signInErrors: string[] = [];
    const warm = new Recorder();
    const warmUp = (group: Person[]) =>
      Promise.all(
        group.map((person) =>
          round(person, warm).catch((error: Error) =>
            warm.errors.push(`${person.name}, warm-up: ${error.message}`),
          ),
        ),
      );
    // the first person signs in and does one round: the backend with one person at work is the
    // baseline of the memory each further person costs
    await people[0]!.signIn(await launchCode(sim, people[0]!.name));
    await warmUp(people.slice(0, 1));
    const onePerson = memory.take();

    // everyone else signs in at once, each with a launch code of their own
    const others = people.slice(1);
    const codes = await Promise.all(others.map((person) => launchCode(sim, person.name)));
    const signInMs = (
      await Promise.all(
        others.map((person, i) =>
          person.signIn(codes[i]!).catch((error: Error) => (signInErrors.push(error.message), NaN)),
        ),
      )
    ).filter(Number.isFinite);
    const cookieName = people[0]!.cookie.split('=')[0]!;
    const afterSignIn = memory.take();

    // one unmeasured round each: every workspace has its first job, the code paths are warm
    await warmUp(others);
    // the flooder's sequence and its generated shot, made before anything is measured
    const floodCalls = new Recorder();
    const flooder = people[0]!;
    const floodCall = <T>(method: string, params: unknown) =>
      flooder.call<T>('flood', floodCalls, method, params);
    const floodReady = FLOOD
      ? await prepareFlood(floodCall).catch((error: Error) => {
          warm.errors.push(`${flooder.name}, flood set-up: ${error.message}`);
          return undefined;
        })
      : undefined;
    const afterWarmUp = memory.take();
    const cpuWarm = cpu();
    clientDelay();

    // the phases alternate, CYCLES times over: one person alone, everyone, everyone with the junk
    // clients, everyone while one floods (so a drift of the machine or of the growing journals
    // weighs on each phase alike, and a moment of a busy machine does not decide one phase alone)
    const phases = ['alone', 'crowd', 'junk'] as const;
    type Phase = (typeof phases)[number];
    const recorders = { alone: new Recorder(), crowd: new Recorder(), junk: new Recorder() };
    const peaks = { alone: 0, crowd: 0, junk: 0 };
    const cpuUsed = Object.fromEntries(
      phases.map((phase) => [phase, { backend: 0, simulator: 0, clients: 0 }]),
    ) as Record<Phase, ReturnType<typeof cpu>>;
    const delays = { alone: 0, crowd: 0, junk: 0 };
    const tally = {
      requests: 0,
      seconds: 0,
      statuses: {} as Record<string, number>,
      unexpected: [] as string[],
    };
    let latecomerAnswer = 'not tried';
    const segment = async (phase: Phase, work: () => Promise<void>) => {
      memory.take();
      cpu();
      clientDelay();
      await work();
      peaks[phase] = Math.max(peaks[phase], memory.take());
      const used = cpu();
      for (const key of ['backend', 'simulator', 'clients'] as const) cpuUsed[phase][key] += used[key];
      delays[phase] = Math.max(delays[phase], clientDelay());
    };
    const segmentMs = (SECONDS * 1000) / CYCLES;
    // the flood: the first person floods assembly and drafts, the others keep their rounds; then
    // the backend finishes the renders it accepted before the next phase starts
    const floodRecorder = new Recorder();
    const floodAnswers: FloodAnswers = {};
    let ffmpegAtOnce = 0;
    let floodBackendSeconds = 0;
    const floodSegment = async (ready: { sequenceId: string; draftId: string }) => {
      const ffmpeg = ffmpegSampler(pid);
      cpu();
      const until = performance.now() + segmentMs;
      const [answers] = await Promise.all([
        flood(floodCall, ready, until),
        loop(people.slice(1), floodRecorder, until),
      ]);
      floodBackendSeconds += cpu().backend;
      ffmpegAtOnce = Math.max(ffmpegAtOnce, ffmpeg.stop());
      for (const [what, n] of Object.entries(answers)) floodAnswers[what] = (floodAnswers[what] ?? 0) + n;
      await noFfmpegFor(pid, 1000, 120_000);
      // and the machine writes the films out: the next phase does not pay for this one's writeback
      spawnSync('sync');
    };
    for (let cycle = 0; cycle < CYCLES; cycle += 1) {
      await segment('alone', () =>
        loop(people.slice(0, 1), recorders.alone, performance.now() + segmentMs / 2),
      );
      await segment('crowd', () => loop(people, recorders.crowd, performance.now() + segmentMs));
      junk = startChild(['--import', 'tsx', path.join(import.meta.dirname, 'platform-junk.ts')], {
        ...process.env,
        JUNK_ORIGIN: origin.origin,
        JUNK_COOKIE: cookieName,
        JUNK_CLIENTS: String(JUNK),
      });
      await nextLine(junk, 'the junk clients');
      const junkProcess = junk;
      await segment('junk', async () => {
        // someone new opens the application while the junk clients run: they must get in (the
        // junk must not use up the sign-in allowance people need)
        const latecomer =
          cycle === 0
            ? (async () => {
                await sleep(segmentMs / 2);
                const person = new Person(`bench${PEOPLE + 1}`, personAddress(PEOPLE), origin);
                try {
                  return `${(await person.signIn(await launchCode(sim, person.name))).toFixed(0)} ms, signed in`;
                } catch (error) {
                  return (error as Error).message.replace(`${person.name}: `, '');
                } finally {
                  person.close();
                }
              })()
            : undefined;
        await loop(people, recorders.junk, performance.now() + segmentMs);
        junkProcess.process.kill('SIGTERM');
        const counted = JSON.parse(await nextLine(junkProcess, 'the junk clients')) as typeof tally;
        tally.requests += counted.requests;
        tally.seconds += counted.seconds;
        for (const [status, count] of Object.entries(counted.statuses))
          tally.statuses[status] = (tally.statuses[status] ?? 0) + count;
        tally.unexpected.push(...counted.unexpected);
        if (latecomer) latecomerAnswer = await latecomer;
      });
      await stop(junkProcess);
      if (floodReady) await floodSegment(floodReady);
    }
    const floodCores = floodBackendSeconds / (floodRecorder.elapsedMs / 1000);
    await sleep(1000);
    const end = memoryOf(pid);
    memory.stop();
    loopDelay.disable();

    // ---- the figures ----
    const summaries = {
      alone: recorders.alone.summary(),
      crowd: recorders.crowd.summary(),
      junk: recorders.junk.summary(),
    };
    const errors = [
      ...signInErrors,
      ...warm.errors,
      ...recorders.alone.errors,
      ...recorders.crowd.errors,
      ...recorders.junk.errors,
      ...floodRecorder.errors,
    ];
    const clean = errors.length === 0 && tally.unexpected.length === 0;
    const peakMemory = Math.max(afterSignIn, afterWarmUp, peaks.alone, peaks.crowd, peaks.junk);
    const perPerson = PEOPLE > 1 ? (peakMemory - onePerson) / (PEOPLE - 1) : NaN;
    const crowdRatio = summaries.crowd.bridgeP50 / summaries.alone.bridgeP50;
    const junkRatio = summaries.junk.bridgeP95 / summaries.crowd.bridgeP95;
    const figures = {
      date: new Date().toISOString(),
      machine: {
        cpus: os.cpus().length,
        node: process.version,
        loadAverageAtStart,
        loadAverageAtEnd: os.loadavg(),
      },
      people: PEOPLE,
      seconds: SECONDS,
      junkClients: JUNK,
      backend: bundle ? 'bundle (out/cli)' : 'TypeScript sources (tsx)',
      backendStartMs: startMs,
      signInAtOnce: { count: signInMs.length, p50: percentile(signInMs, 50), p95: percentile(signInMs, 95) },
      phases: summaries,
      cycles: CYCLES,
      cpuSeconds: { warmUp: cpuWarm, ...cpuUsed },
      clientEventLoopDelayP99Ms: delays,
      junk: { ...tally, perSecond: tally.requests / tally.seconds },
      latecomerSignIn: latecomerAnswer,
      memoryMiB: {
        atRest,
        onePerson,
        afterSignIn,
        afterWarmUp,
        ...peaks,
        peak: peakMemory,
        end: end.rss,
        highWaterMark: end.peak,
        perPerson,
      },
      flood: floodReady
        ? {
            others: floodRecorder.summary(),
            flooderAnswers: floodAnswers,
            ffmpegAtOnce,
            backendCores: floodCores,
          }
        : null,
      errors: errors.slice(0, 50),
      backendStderr: backend.otherStderr,
    };
    writeFileSync(path.join(WORK, 'platform.json'), JSON.stringify(figures, null, 2) + '\n');

    const failure = clean
      ? ''
      : ` — FAILED: ${errors.length} errors of the people` +
        (errors.length ? ` (${errors.slice(0, 3).join('; ')})` : '') +
        (tally.unexpected.length
          ? `; junk clients answered: ${tally.unexpected.slice(0, 3).join('; ')}`
          : '');
    if (!clean) {
      console.error(
        `platform bench: ${errors.length} errors of the people, ${tally.unexpected.length} unexpected answers to junk`,
      );
      for (const line of [...errors.slice(0, 20), ...tally.unexpected.slice(0, 10)])
        console.error(`  ${line}`);
      if (backend.otherStderr.length)
        console.error(`  the backend's stderr:\n    ${backend.otherStderr.slice(0, 20).join('\n    ')}`);
    }
    const cores = (used: { backend: number }, summary: Summary) =>
      (used.backend / summary.seconds).toFixed(2);
    const kinds = (summary: Summary) =>
      Object.entries(summary.kinds)
        .map(([kind, k]) => `${kind} ${ms(k.p50)}/${ms(k.p95)}`)
        .join(', ');
    const statuses = Object.entries(tally.statuses)
      .map(([status, count]) => `${status}×${count}`)
      .join(' ');
    const floodSummary = floodRecorder.summary();
    const floodRow: BenchRow[] = FLOOD
      ? [
          {
            name: `platform under load: one person floods assembly and drafts, the other ${PEOPLE - 1} people's bridge call p95`,
            ratio: floodSummary.bridgeP95 / GOALS.floodP95Ms,
            goal: `≤ 1.00 of ${GOALS.floodP95Ms} ms, 0 errors of the others`,
            ok: clean && floodReady !== undefined && floodSummary.bridgeP95 <= GOALS.floodP95Ms,
            detail:
              `bridge call p50/p95 ${ms(floodSummary.bridgeP50)}/${ms(floodSummary.bridgeP95)} for the others ` +
              `(${ms(summaries.crowd.bridgeP50)}/${ms(summaries.crowd.bridgeP95)} without the flood); ` +
              `${floodSummary.jobsPerSecond.toFixed(1)} jobs/s; the flooder was answered ` +
              `${
                Object.entries(floodAnswers)
                  .map(([what, n]) => `${what}×${n}`)
                  .join(', ') || 'nothing (no flood set-up)'
              }; ` +
              `at most ${ffmpegAtOnce} ffmpeg at once; backend ${floodCores.toFixed(2)} cores; ` +
              `errors ${floodRecorder.errors.length}${failure}`,
          },
        ]
      : [];
    return [
      ...floodRow,
      {
        name: `platform under load: ${PEOPLE} people at once, bridge call p50 vs one person alone`,
        ratio: crowdRatio,
        goal: `≤ ${GOALS.crowdP50}×, 0 errors`,
        ok: clean && crowdRatio <= GOALS.crowdP50,
        detail:
          `bridge call p50/p95 ${ms(summaries.crowd.bridgeP50)}/${ms(summaries.crowd.bridgeP95)} with ${PEOPLE} people, ` +
          `${ms(summaries.alone.bridgeP50)}/${ms(summaries.alone.bridgeP95)} alone; ` +
          `${summaries.crowd.callsPerSecond.toFixed(0)} calls/s, ${summaries.crowd.jobsPerSecond.toFixed(1)} jobs/s ` +
          `(alone ${summaries.alone.callsPerSecond.toFixed(1)} calls/s); p50/p95 per call: ${kinds(summaries.crowd)}; ` +
          `${PEOPLE - 1} sign-ins at once p50/p95 ${ms(figures.signInAtOnce.p50)}/${ms(figures.signInAtOnce.p95)}; ` +
          `backend ${cores(cpuUsed.crowd, summaries.crowd)} cores; errors ${errors.length}${failure}`,
      },
      {
        name: `platform under load: + ${JUNK} junk clients, bridge call p95 vs without`,
        ratio: junkRatio,
        goal: `≤ ${GOALS.junkP95}×, 0 errors, a new person signs in meanwhile`,
        ok: clean && junkRatio <= GOALS.junkP95 && latecomerAnswer.endsWith('signed in'),
        detail:
          `bridge call p50/p95 ${ms(summaries.junk.bridgeP50)}/${ms(summaries.junk.bridgeP95)} with junk, ` +
          `${ms(summaries.crowd.bridgeP50)}/${ms(summaries.crowd.bridgeP95)} without; people ${summaries.junk.callsPerSecond.toFixed(0)} calls/s; ` +
          `junk ${figures.junk.perSecond.toFixed(0)} req/s (${statuses}); a new sign-in meanwhile: ${latecomerAnswer}; ` +
          `backend ${cores(cpuUsed.junk, summaries.junk)} cores; errors ${recorders.junk.errors.length}${failure}`,
      },
      {
        name: `platform under load: backend resident memory per signed-in person`,
        ratio: perPerson / GOALS.mibPerPerson,
        goal: `≤ 1.00 of ${GOALS.mibPerPerson} MiB${PEOPLE < 20 ? ' (judged at ≥ 20 people)' : ''}`,
        // judged with 20 people or more: with a few, the heap the backend grows into as it warms
        // up (tens of MiB, whoever is signed in) outweighs what each person costs
        ok: clean && (PEOPLE < 20 || perPerson <= GOALS.mibPerPerson),
        detail:
          `${Number.isFinite(perPerson) ? perPerson.toFixed(1) : '—'} MiB per further person ` +
          `(peak − one person at work, over ${PEOPLE - 1}): ${mib(atRest)} at rest after start ` +
          `(ready in ${(startMs / 1000).toFixed(1)} s, ${figures.backend}), ${mib(onePerson)} with one person, ` +
          `${mib(afterSignIn)} after ${PEOPLE - 1} more sign-ins, ` +
          `peak ${mib(peakMemory)} (alone ${mib(peaks.alone)}, ${PEOPLE} people ${mib(peaks.crowd)}, with junk ${mib(peaks.junk)}), ` +
          `end ${mib(end.rss)}${failure}`,
      },
    ];
  } finally {
    for (const person of people) person.close();
    await stop(junk);
    await stop(backend);
    await stop(simulator);
    rmSync(runDir, { recursive: true, force: true });
  }
}
