import type { Command } from 'commander';
import type { VoiceMode } from '../../shared/api/audio-generation.js';
import { isCallable } from '../../shared/api/service-availability.js';
import { audioProfile, listVoices, buildAudioBody } from '../../main/core/operations/audio-generation.js';
import { SERVICE_KINDS } from '../../main/core/operations/service-common.js';
import { printJson, withCliCore } from '../cli-context.js';
import { ExitCode } from '../exit-codes.js';
import { integerOption, reportJob, resolveFor } from './playground-shared.js';

interface SpeakOptions {
  model?: string;
  voiceMode?: string;
  speaker?: string;
  instruct?: string;
  prompt?: string;
  video?: string;
  seconds?: string;
  seed?: string;
  timeout: string;
  wait: boolean;
  idempotencyKey?: string;
  voices?: boolean;
}

export const runSpeakCommand = async (text: string | undefined, opts: SpeakOptions, command: Command) => {
  await withCliCore(command, async (cli) => {
    if (opts.voices) {
      const client = await cli.core.catalog.clientFor(cli.profileId);
      const voices = await listVoices(client);
      if (cli.json) printJson({ voices });
      else
        for (const v of voices)
          process.stdout.write(
            `${v.voiceId}  ${v.displayName}  ${v.primaryLanguage}  ${v.description ?? ''}\n`,
          );
      return ExitCode.ok;
    }
    const draft = {
      text,
      voiceMode: opts.voiceMode as VoiceMode | undefined,
      speaker: opts.speaker,
      instruct: opts.instruct,
      prompt: opts.prompt,
      videoFile: opts.video,
      seconds: integerOption(opts.seconds, '--seconds'),
      seed: integerOption(opts.seed, '--seed'),
    };
    let model = opts.model;
    if (!model) {
      const { services } = await cli.core.catalog.discover(cli.profileId, {
        serviceKind: 'audio_generation',
      });
      const want = opts.video ? 'foley' : text === undefined && opts.prompt ? 'music' : 'speech';
      model = services.find((s) => isCallable(s) && audioProfile(s) === want)?.modelAlias;
    }
    const { service } = await resolveFor(cli, SERVICE_KINDS.audio, model);
    buildAudioBody(service, draft);
    const timeout = integerOption(opts.timeout, '--timeout')!;
    const result = await cli.core.media.submitAudio({
      profileId: cli.profileId,
      service,
      draft,
      idempotencyKey: opts.idempotencyKey,
      wait: { waitSeconds: timeout, noWait: !opts.wait },
    });
    return reportJob(cli, result, opts.wait);
  });
};
