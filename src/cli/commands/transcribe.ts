import type { Command } from 'commander';
import { lazyAction } from '../lazy-action.js';

/** What `transcribe --format` prints or writes. */
export const FORMATS = ['text', 'srt', 'vtt', 'json'] as const;

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
    .action(lazyAction(() => import('../actions/transcribe.js').then((m) => m.runTranscribeCommand)));
}
