import { writeFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { AppError } from '../../main/core/errors.js';
import { SERVICE_KINDS } from '../../main/core/operations/service-common.js';
import { transcriptionMimeType } from '../../main/core/operations/transcription.js';
import { printJson, withCliCore } from '../cli-context.js';
import { ExitCode } from '../exit-codes.js';
import { FORMATS } from '../commands/transcribe.js';
import { resolveFor } from './playground-shared.js';

export const runTranscribeCommand = async (
  file: string,
  opts: { model?: string; language?: string; responseFormat?: string; format: string; out?: string },
  command: Command,
) => {
  await withCliCore(command, async (cli) => {
    if (!(FORMATS as readonly string[]).includes(opts.format))
      throw new AppError('usage', `--format must be one of ${FORMATS.join(', ')} (got ${opts.format}).`);
    await transcriptionMimeType(file);
    const { client, service } = await resolveFor(cli, SERVICE_KINDS.transcription, opts.model);
    const result = await cli.core.playground.transcribe(client, service, file, {
      language: opts.language,
      responseFormat: opts.responseFormat,
    });
    const text =
      opts.format === 'srt'
        ? result.exports.srt
        : opts.format === 'vtt'
          ? result.exports.vtt
          : opts.format === 'json'
            ? JSON.stringify(result.response, null, 2) + '\n'
            : result.exports.txt;
    if (opts.out) await writeFile(opts.out, text);
    if (cli.json)
      printJson({
        model: service.modelAlias,
        sentAs: result.sentAs,
        ...result.response,
        ...(opts.out ? { out: opts.out } : {}),
      });
    else if (!opts.out) process.stdout.write(text);
    return ExitCode.ok;
  });
};
