import { writeFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { AppError } from '../../main/core/errors.js';
import { SERVICE_KINDS } from '../../main/core/services/service-common.js';
import { transcribeFile, transcriptionMimeType } from '../../main/core/services/transcription.js';
import { printJson, withCliCore } from '../cli-context.js';
import { ExitCode } from '../exit-codes.js';
import { resolveFor } from './playground-shared.js';

const FORMATS = ['text', 'srt', 'vtt', 'json'] as const;

/** `framewright transcribe <file>`: one audio file (<= 25 MiB, listed types) to text, SRT or VTT. */
export function registerTranscribeCommand(program: Command): void {
  program
    .command('transcribe')
    .description('speech to text: one audio file of at most 25 MiB (WAV, MP3, M4A, WebM, OGG, FLAC)')
    .argument('<file>', 'audio file')
    .option('--model <alias>', 'transcription model alias (default: the first available)')
    .option('--language <code>', 'spoken language (only where the model supports it)')
    .option('--response-format <format>', 'response_format (only where the model supports it)')
    .option('--format <format>', `what to print or write: ${FORMATS.join(' | ')}`, 'text')
    .option('--out <file>', 'write the transcript there instead of printing it')
    .action(
      async (
        file: string,
        opts: { model?: string; language?: string; responseFormat?: string; format: string; out?: string },
        command: Command,
      ) => {
        await withCliCore(command, async (cli) => {
          if (!(FORMATS as readonly string[]).includes(opts.format))
            throw new AppError(
              'usage',
              `--format must be one of ${FORMATS.join(', ')} (got ${opts.format}).`,
            );
          await transcriptionMimeType(file);
          const { client, service } = await resolveFor(cli, SERVICE_KINDS.transcription, opts.model);
          const result = await transcribeFile(cli.core.journal, client, service, file, {
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
      },
    );
}
