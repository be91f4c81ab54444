/**
 * The platform bench's junk clients, in their own process (`bench/platform.ts` starts it, so their
 * tight loops do not slow the people's clients): `JUNK_CLIENTS` clients, each from its own
 * loopback address, send random session cookies and junk launch codes to `JUNK_ORIGIN` as fast as
 * they are answered, until SIGTERM. Prints "ready", then at the end one JSON line: the requests,
 * the answers' statuses, and up to 20 answers other than the refusals expected for them
 * (400 malformed, 401 no session, 403 no CSRF token, 429 too many sign-ins).
 */
import { randomBytes } from 'node:crypto';
import { PLATFORM_CSRF_HEADER, PLATFORM_SESSION_PATH } from '../src/shared/bridge/platform-host-protocol.js';
import { clientAgent, send, type Answer } from './platform-client.js';

const origin = new URL(process.env.JUNK_ORIGIN!);
const cookieName = process.env.JUNK_COOKIE ?? 'framewright_session';
const clients = Number(process.env.JUNK_CLIENTS ?? 8);

const EXPECTED = new Set([400, 401, 403, 429]);
const statuses = new Map<number, number>();
const unexpected: string[] = [];
let requests = 0;
let stopping = false;

/** What a client that knows no cookie or launch code can send, in turn. */
function attempts(i: number): (() => Promise<Answer>)[] {
  const json = { origin: origin.origin, 'content-type': 'application/json' };
  const cookie = `${cookieName}=${randomBytes(32).toString('base64url')}`;
  const session = new URL(PLATFORM_SESSION_PATH, origin);
  return [
    () =>
      send(
        agentOf(i),
        new URL('/bridge/invoke', origin),
        'POST',
        { ...json, cookie, [PLATFORM_CSRF_HEADER]: randomBytes(32).toString('base64url') },
        JSON.stringify({ method: 'library.list', params: {} }),
      ),
    () => send(agentOf(i), session, 'GET', { cookie }),
    () => send(agentOf(i), new URL('/media/library/1/1?s=x', origin), 'GET', { cookie }),
    // a well-formed code the platform never issued (a call to the session service unless limited)
    () =>
      send(
        agentOf(i),
        session,
        'POST',
        json,
        JSON.stringify({ launchCode: `lc_${randomBytes(24).toString('base64url')}` }),
      ),
    // a guessed answer to a held sign-in (login CSRF's question): nothing is signed in
    () =>
      send(
        agentOf(i),
        session,
        'POST',
        json,
        JSON.stringify({ confirmToken: randomBytes(32).toString('base64url'), confirm: true }),
      ),
    // a malformed one (refused before any call out)
    () => send(agentOf(i), session, 'POST', json, JSON.stringify({ launchCode: `junk ${i}\n` })),
  ];
}

const agents = Array.from({ length: clients }, (_, i) => clientAgent(`127.0.200.${i + 2}`));
const agentOf = (i: number) => agents[i]!;

async function client(i: number): Promise<void> {
  for (let n = 0; !stopping; n += 1) {
    const kinds = attempts(i);
    const kind = n % kinds.length;
    try {
      const answer = await kinds[kind]!();
      requests += 1;
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      if (!EXPECTED.has(answer.status) && unexpected.length < 20)
        unexpected.push(`attempt ${kind} answered ${answer.status}`);
    } catch (error) {
      if (unexpected.length < 20) unexpected.push(`attempt ${kind}: ${(error as Error).message}`);
    }
  }
}

const started = performance.now();
const running = Promise.all(agents.map((_, i) => client(i)));
process.once('SIGTERM', () => {
  stopping = true;
  void running.then(() => {
    for (const agent of agents) agent.destroy();
    const seconds = (performance.now() - started) / 1000;
    process.stdout.write(
      JSON.stringify({ requests, seconds, statuses: Object.fromEntries(statuses), unexpected }) + '\n',
      () => process.exit(0),
    );
  });
});
process.stdout.write('ready\n');
