import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The project folder when running from source (CLI, browser host, tests). */
export const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

/** Where `npm run build` puts the renderer bundle. */
export const builtRendererDir = path.join(projectRoot, 'out', 'renderer');
