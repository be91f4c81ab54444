import { writeFile } from 'node:fs/promises';
import type { DocumentParseResponse } from '../../shared/api/document-parse.js';
import type { StoredAsset } from '../assets/asset-store.js';
import type { SimulatorState } from '../context.js';
import { renderAudio, type AudioRenderPlan } from '../media/render-audio.js';
import { renderImage, type ImageRenderPlan } from '../media/render-image.js';
import { renderVideo, type VideoRenderPlan } from '../media/render-video.js';
import type { StoredJob } from './job-store.js';
import { registerOutput } from './outputs.js';

/**
 * What a job renders, as plain data (so that a job accepted before a restart of the simulator
 * is rendered after it). Keys name content-addressed output files.
 */
export type RenderTask =
  | { type: 'video'; key: string; plan: VideoRenderPlan }
  | { type: 'image'; items: { key: string; plan: ImageRenderPlan }[] }
  | { type: 'audio'; key: string; plan: AudioRenderPlan }
  /** A document parse job: its answer as one JSON result. */
  | { type: 'document'; key: string; result: DocumentParseResponse };

/** Renders a task's outputs with ffmpeg and registers them as result assets of the job. */
export async function executeRenderTask(
  state: SimulatorState,
  job: StoredJob,
  task: RenderTask,
): Promise<StoredAsset[]> {
  switch (task.type) {
    case 'video': {
      const file = await state.renders.produce(task.key, '.mp4', (out) => renderVideo(task.plan, out));
      return [await registerOutput(state, job, file, 'video', 'video/mp4')];
    }
    case 'image': {
      const outputs: StoredAsset[] = [];
      for (const item of task.items) {
        const file = await state.renders.produce(item.key, '.png', (out) => renderImage(item.plan, out));
        outputs.push(await registerOutput(state, job, file, 'image', 'image/png'));
      }
      return outputs;
    }
    case 'audio': {
      const file = await state.renders.produce(task.key, '.wav', (out) => renderAudio(task.plan, out));
      return [await registerOutput(state, job, file, 'audio', 'audio/wav')];
    }
    case 'document': {
      const json = JSON.stringify(task.result, null, 2) + '\n';
      const file = await state.renders.produce(task.key, '.json', (out) => writeFile(out, json));
      return [await registerOutput(state, job, file, 'document', 'application/json')];
    }
  }
}
