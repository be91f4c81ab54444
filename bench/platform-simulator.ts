/**
 * The platform bench's simulator, in its own process (`bench/platform.ts` starts it): the local
 * simulator with its Application Platform surfaces, and — for this run only — `BENCH_PEOPLE`
 * more people besides the three fixture people, so that many distinct people can be signed in at
 * once. Each is a person of their own (own tenant, account and user: `bench1` … `benchN`), opened
 * through the simulator's ordinary launch route (`{appKey, user: "bench7"}`).
 *
 * The simulator's fake world has three people; adding to its fixture tables before it starts is
 * what this process is for (nothing is written to the simulator's sources or to disk outside its
 * temporary data folder). Prints one JSON line: `{baseUrl, token, platform}`.
 */
import { startSimulator } from '../src/simulator/index.js';
import { FIXTURE_SUBJECTS, FIXTURE_USERS, type Subject } from '../src/simulator/platform/fixtures.js';

const people = Number(process.env.BENCH_PEOPLE ?? 50);
const timeScale = Number(process.env.BENCH_TIME_SCALE ?? 0.01);

/** The bench's people: `bench1` … `benchN`, each in a personal context of their own. */
function addPeople(count: number): void {
  const users = FIXTURE_USERS as string[];
  const subjects = FIXTURE_SUBJECTS as Record<string, Subject>;
  for (let i = 1; i <= count; i += 1) {
    const user = `bench${i}`;
    if (users.includes(user)) continue;
    users.push(user);
    subjects[user] = {
      tenantId: `tnt_bench_${i}`,
      accountId: `acc_bench_${i}`,
      workspaceId: `wsp_bench_${i}`,
      userId: `usr_bench_${i}`,
    };
  }
}

addPeople(people);
const sim = await startSimulator({ port: 0, timeScale });
process.stdout.write(
  JSON.stringify({ baseUrl: sim.baseUrl, token: sim.token, platform: sim.platform }) + '\n',
);
const stop = () => void sim.close().then(() => process.exit(0));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
