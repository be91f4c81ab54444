import type { Command } from 'commander';
import type { JobView } from '../../shared/bridge/domains/studio.js';
import { AppError } from '../../main/core/errors.js';
import type { MarksChange, MarksFilter } from '../../main/core/library/library.js';
import { MARK_LABELS, MAX_STARS, type JobMarks, type MarkLabel } from '../../shared/library-marks.js';
import { printJson, withCliCore } from '../cli-context.js';
import { ExitCode } from '../exit-codes.js';

export const runReindexCommand = async (opts: { library?: string; assignTo?: string }, command: Command) =>
  withCliCore(
    command,
    async (cli) => {
      const result = await cli.core.library.reindex({
        library: opts.library || undefined,
        assignTo: opts.assignTo || undefined,
      });
      if (cli.json) {
        printJson(result);
      } else {
        for (const entry of result.entries) {
          const what = entry.jobId ?? entry.sidecar;
          if (entry.outcome === 'restored') process.stdout.write(`restored  ${what}\n`);
          if (entry.outcome === 'refused')
            process.stdout.write(`refused   ${entry.sidecar}: ${entry.reason}\n`);
        }
        process.stdout.write(
          `${result.restored} restored, ${result.alreadyIndexed} already in the journal, ${result.refused} refused` +
            (result.collectionsRestored > 0 ? `; ${result.collectionsRestored} collections restored` : '') +
            '\n',
        );
      }
      return result.refused > 0 ? ExitCode.invalidInput : ExitCode.ok;
    },
    { resolveIdentity: false },
  );

/** `--stars N`: a whole number from 0 to 5 (a usage error otherwise). */
function starsOption(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const stars = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || stars > MAX_STARS)
    throw new AppError('usage', `--stars must be a whole number from 0 to ${MAX_STARS}.`);
  return stars;
}

/** `--label C`: one of the colours (or `none`, where `none` is allowed). */
function labelOption(raw: string | undefined, noneAllowed: boolean): MarkLabel | null | undefined {
  if (raw === undefined) return undefined;
  if (noneAllowed && raw === 'none') return null;
  if (!(MARK_LABELS as readonly string[]).includes(raw))
    throw new AppError(
      'usage',
      `--label must be one of ${MARK_LABELS.join(', ')}${noneAllowed ? ', or none' : ''}.`,
    );
  return raw as MarkLabel;
}

/** One of the flags given, at most (a usage error when two are). */
function oneFlag<T extends string>(given: Partial<Record<T, boolean>>): T | undefined {
  const set = (Object.keys(given) as T[]).filter((name) => given[name]);
  if (set.length > 1) throw new AppError('usage', `Give one of --${set.join(', --')}, not several.`);
  return set[0];
}

const marksText = (marks: JobMarks) =>
  [
    marks.flag ?? 'unmarked',
    `${'★'.repeat(marks.stars)}${'☆'.repeat(MAX_STARS - marks.stars)}`,
    marks.label ?? '',
  ]
    .join('  ')
    .trimEnd();

const listedResult = (view: JobView) => ({
  jobId: view.jobId,
  model: view.model,
  title: view.title,
  acceptedAt: new Date(view.acceptedAt).toISOString(),
  marks: view.marks,
});

export const runMarkCommand = async (
  ref: string,
  opts: { pick?: boolean; reject?: boolean; unmark?: boolean; stars?: string; label?: string },
  command: Command,
) =>
  withCliCore(
    command,
    async (cli) => {
      const flag = oneFlag({ pick: opts.pick, reject: opts.reject, unmark: opts.unmark });
      const change: Omit<MarksChange, 'jobRowId'> = {
        ...(flag ? { flag: flag === 'unmark' ? null : flag } : {}),
        ...(opts.stars !== undefined ? { stars: starsOption(opts.stars) } : {}),
        ...(opts.label !== undefined ? { label: labelOption(opts.label, true) } : {}),
      };
      if (Object.keys(change).length === 0)
        throw new AppError('usage', 'Say what to mark: --pick, --reject, --unmark, --stars or --label.');
      const studio = cli.studio();
      const job = studio.views.find(ref, cli.profileId);
      const view = await studio.library.mark({ jobRowId: job.id, ...change });
      if (cli.json) printJson(listedResult(view));
      else process.stdout.write(`${view.jobId}  ${marksText(view.marks)}\n`);
      return ExitCode.ok;
    },
    { resolveIdentity: false },
  );

export const runListCommand = async (
  opts: {
    pick?: boolean;
    reject?: boolean;
    unmarked?: boolean;
    stars?: string;
    label?: string;
    query?: string;
  },
  command: Command,
) =>
  withCliCore(
    command,
    async (cli) => {
      const filter: MarksFilter = {
        flag: oneFlag({ pick: opts.pick, reject: opts.reject, unmarked: opts.unmarked }),
        minStars: starsOption(opts.stars),
        label: labelOption(opts.label, false) ?? undefined,
      };
      const { items } = cli.studio().library.list({ ...filter, query: opts.query });
      if (cli.json) printJson({ object: 'list', data: items.map(listedResult) });
      else
        for (const view of items)
          process.stdout.write(
            `${view.jobId.padEnd(36)} ${marksText(view.marks).padEnd(24)} ${view.title}\n`,
          );
      return ExitCode.ok;
    },
    { resolveIdentity: false },
  );
