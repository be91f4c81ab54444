import type { PlatformRoute } from '../router.js';
import { cliPairingRoutes } from './cli-pairing-routes.js';
import { developerAppRoutes } from './developer-routes.js';
import { imageImportRoutes } from './image-imports.js';
import { inspectionRoutes } from './inspection-routes.js';
import { sdkRoutes } from './sdk-index.js';
import { versionRoutes } from './version-routes.js';

/** Every route of the developer control plane (section E) and its local portal and inspection routes. */
export const developerRoutes: PlatformRoute[] = [
  ...developerAppRoutes,
  ...versionRoutes,
  ...imageImportRoutes,
  ...cliPairingRoutes,
  ...sdkRoutes,
  ...inspectionRoutes,
];
