/**
 * The platform bench's flood (issue 37): one person floods the heavy work — `sequences.assemble`
 * with a slightly different cross-fade each time (each a new film to render) and `drafts.save`
 * of a large draft — as fast as the backend answers, while the others keep their ordinary rounds.
 * `platform.ts` runs it as one more phase; what is measured here is what the flooder was told
 * (answers by code: refusals such as `media.queue_full` or `quota.exceeded` are the expected
 * ones) and how many ffmpeg processes the backend ran at once.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { PLATFORM_T2V_FORM } from '../test/support/worlds/platform-world.js';

/** What the flooder needs of a signed-in person: one bridge call, its answer or a thrown error. */
export type FloodCall = <T>(method: string, params: unknown) => Promise<T>;

interface SequenceView {
  sequenceId: string;
  shots: { mediaUrl: string | null }[];
}

/** A sequence with one generated shot and a draft, ready to flood; throws when the shot never comes. */
export async function prepareFlood(call: FloodCall): Promise<{ sequenceId: string; draftId: string }> {
  const { sequenceId } = await call<SequenceView>('sequences.create', { name: 'Flood' });
  await call('sequences.addShot', { sequenceId, form: PLATFORM_T2V_FORM });
  await call('sequences.generate', { sequenceId });
  const end = performance.now() + 120_000;
  for (;;) {
    const view = await call<SequenceView>('sequences.get', { sequenceId });
    if (view.shots.every((shot) => shot.mediaUrl !== null)) break;
    if (performance.now() > end) throw new Error('the flood sequence’s shot was not generated in 120 s');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const draft = await call<{ id: string }>('drafts.create', { form: PLATFORM_T2V_FORM });
  return { sequenceId, draftId: draft.id };
}

/** The flooder's answers: ok, or the error code (or HTTP status) of each refusal. */
export type FloodAnswers = Record<string, number>;

/**
 * Until `until`: assemble with a new cross-fade, save a 190 000-character draft, again and again,
 * without waiting for any render. Every answer is counted by its code.
 */
export async function flood(
  call: FloodCall,
  prepared: { sequenceId: string; draftId: string },
  until: number,
): Promise<FloodAnswers> {
  const answers: FloodAnswers = {};
  const count = (what: string) => (answers[what] = (answers[what] ?? 0) + 1);
  const codeOf = (error: unknown) =>
    /: ([a-z_]+\.[a-z_.]+) /.exec((error as Error).message)?.[1] ??
    /answered (HTTP \d+)/.exec((error as Error).message)?.[1] ??
    'other';
  for (let i = 1; performance.now() < until; i += 1) {
    // a slightly different cross-fade each time: a new film for the backend to render
    const crossfadeSeconds = ((i % 199) + 1) / 100;
    await call('sequences.assemble', { sequenceId: prepared.sequenceId, crossfadeSeconds }).then(
      () => count('assemble ok'),
      (error: unknown) => count(`assemble ${codeOf(error)}`),
    );
    await call('drafts.save', {
      draftId: prepared.draftId,
      form: { ...PLATFORM_T2V_FORM, prompt: `${i} ${'x'.repeat(190_000)}` },
    }).then(
      () => count('draft ok'),
      (error: unknown) => count(`draft ${codeOf(error)}`),
    );
  }
  return answers;
}

/** How many ffmpeg processes `parent` runs now (its children, from /proc). */
function ffmpegChildren(parent: number): number {
  let count = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === parent && name.startsWith('ffmpeg')) count += 1;
    } catch {
      // the process ended meanwhile
    }
  }
  return count;
}

/** Samples the backend's ffmpeg children every 100 ms; `stop` answers the most seen at once. */
export function ffmpegSampler(parent: number): { stop(): number } {
  let most = 0;
  const timer = setInterval(() => (most = Math.max(most, ffmpegChildren(parent))), 100);
  return {
    stop() {
      clearInterval(timer);
      return Math.max(most, ffmpegChildren(parent));
    },
  };
}

/**
 * Waits until `parent` has run no ffmpeg for `quietMs` (the renders it accepted are done), at most
 * `timeoutMs`; throws when they are not.
 */
export async function noFfmpegFor(parent: number, quietMs: number, timeoutMs: number): Promise<void> {
  const end = performance.now() + timeoutMs;
  let quietSince = performance.now();
  while (performance.now() - quietSince < quietMs) {
    if (performance.now() > end)
      throw new Error(`the backend still ran ffmpeg ${timeoutMs / 1000} s after the flood`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    if (ffmpegChildren(parent) > 0) quietSince = performance.now();
  }
}
