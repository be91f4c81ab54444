import type { Command } from 'commander';
import { SERVICE_KINDS } from '../../main/core/operations/service-common.js';
import { withCliCore } from '../cli-context.js';
import { commandProgress } from '../progress/command-progress.js';
import { integerOption, reportJob, resolveFor } from './playground-shared.js';

interface ImageOptions {
  model?: string;
  mode?: string;
  count?: string;
  orientation?: string;
  size?: string;
  quality?: string;
  resolutionTier?: string;
  seed?: string;
  input: string[];
  timeout: string;
  wait: boolean;
  idempotencyKey?: string;
}

export const runImageCommand = async (prompt: string, opts: ImageOptions, command: Command) => {
  await withCliCore(command, async (cli) => {
    const draft = {
      prompt,
      generationMode: opts.mode ?? (opts.input.length > 0 ? 'i2i' : undefined),
      imageCount: integerOption(opts.count, '--count'),
      orientation: opts.orientation,
      outputSizeCode: opts.size,
      qualityTier: opts.quality,
      resolutionTier: opts.resolutionTier,
      seed: integerOption(opts.seed, '--seed'),
      inputImages: opts.input,
    };
    const { service } = await resolveFor(cli, SERVICE_KINDS.image, opts.model);
    const line = 'image';
    // this command runs one job: every job the engine reports here is it
    const progress = commandProgress(cli, { labelFor: () => line });
    try {
      progress.track(line);
      const result = await cli.core.media.submitImage({
        profileId: cli.profileId,
        service,
        draft,
        idempotencyKey: opts.idempotencyKey,
        wait: { waitSeconds: integerOption(opts.timeout, '--timeout')!, noWait: !opts.wait },
        onStep: (step) => progress.update(line, { stage: step }),
      });
      progress.done(line);
      progress.end();
      return reportJob(cli, result, opts.wait);
    } finally {
      progress.end();
    }
  });
};
