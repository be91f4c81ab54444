import path from 'node:path';
import { findAppRoot } from '../../../shared/node/app-root.js';

/** The project folder (the one with package.json), from the sources or a bundle. */
export const projectRoot = findAppRoot();

/** Where `npm run build` puts the renderer bundle. */
export const builtRendererDir = path.join(projectRoot, 'out', 'renderer');
