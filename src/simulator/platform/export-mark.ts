import { fontFile, filterQuote, runFfmpeg } from '../media/ffmpeg.js';

/** The visible mark of a marked export: a dark band across the lower sixth with a label. */
export const MARK_LABEL = 'PLATFORM MARKED EXPORT';

/** Draws the mark into an image (png, jpeg, webp) or an mp4 video (its sound is kept). */
export async function drawExportMark(source: string, target: string, mimeType: string): Promise<void> {
  const font = fontFile();
  const fontOpt = font ? `fontfile=${filterQuote(font)}:` : '';
  const filter =
    'drawbox=x=0:y=ih*5/6:w=iw:h=ih/6:color=black@0.7:t=fill,' +
    `drawtext=${fontOpt}text='${MARK_LABEL}':fontcolor=white:fontsize=h/14:x=(w-tw)/2:y=h*11/12-th/2`;
  const output =
    mimeType === 'video/mp4'
      ? ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'copy', '-f', 'mp4']
      : [
          '-frames:v',
          '1',
          '-f',
          'image2',
          '-c:v',
          { 'image/png': 'png', 'image/jpeg': 'mjpeg', 'image/webp': 'libwebp' }[mimeType] ?? 'png',
        ];
  await runFfmpeg(['-i', source, '-vf', filter, ...output, target]);
}
