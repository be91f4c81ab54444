import { debugInspectionRoutes } from './debug/inspection-routes.js';
import { debugRoutes } from './debug/debug-routes.js';
import { relayRoutes } from './debug/relay-route.js';
import { directoryRoutes } from './directory-routes.js';
import { eventsRoutes } from './events-route.js';
import { exportRoutes } from './exports-route.js';
import { grantRoutes } from './grant-routes.js';
import { promptOptimizationRoutes } from './prompt-optimization-route.js';
import type { PlatformRoute } from './router.js';
import { runtimeJobRoutes } from './runtime-job-routes.js';
import { servicesRoutes } from './services-route.js';
import { syncCallRoutes } from './sync-call-routes.js';
import { usageRoutes } from './usage-route.js';
import { sessionRoutes } from './session-routes.js';
import { developerRoutes } from './developer/index.js';

/** Every platform route (the platform OpenAPI document is built from the same list). */
export const PLATFORM_ROUTES: readonly PlatformRoute[] = [
  ...sessionRoutes,
  ...directoryRoutes,
  ...grantRoutes,
  ...servicesRoutes,
  ...runtimeJobRoutes,
  ...usageRoutes,
  ...eventsRoutes,
  ...exportRoutes,
  ...syncCallRoutes,
  ...promptOptimizationRoutes,
  ...developerRoutes,
  ...debugRoutes,
  ...debugInspectionRoutes,
  ...relayRoutes,
];
