import type { RouteDef } from '../context.js';
import { adminRoutes } from './admin.js';
import { admissionRoutes } from './admission.js';
import { assetRoutes } from './assets.js';
import { audioRoutes } from './audio.js';
import { chatRoutes } from './chat.js';
import { discoveryRoutes } from './discovery.js';
import { documentRoutes } from './documents.js';
import { imageRoutes } from './images.js';
import { mediaRoutes } from './media.js';
import { ocrRoutes } from './ocr.js';
import { platformAdminRoutes } from '../platform/admin-routes.js';
import { promptOptimizationRoutes } from './prompt-optimization.js';
import { retrievalRoutes } from './retrieval.js';
import { transcriptionRoutes } from './transcription.js';

/** Every route the simulator serves under /v1 (the OpenAPI document is built from the same list). */
export const ROUTES: readonly RouteDef[] = [
  ...discoveryRoutes,
  ...chatRoutes,
  ...retrievalRoutes,
  ...ocrRoutes,
  ...documentRoutes,
  ...transcriptionRoutes,
  ...audioRoutes,
  ...imageRoutes,
  ...mediaRoutes,
  ...promptOptimizationRoutes,
  ...assetRoutes,
  ...admissionRoutes,
  ...adminRoutes,
  ...platformAdminRoutes,
];
