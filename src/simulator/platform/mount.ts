import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SimulatorState } from '../context.js';
import { buildPlatformOpenApi } from './openapi.js';
import { createPlatformHandler, PLATFORM_OPENAPI_PATH, PLATFORM_PREFIX } from './router.js';
import { PLATFORM_ROUTES } from './routes.js';

export interface PlatformMount {
  /** Whether a request path belongs to the platform surfaces. */
  owns(pathname: string): boolean;
  handle(req: IncomingMessage, res: ServerResponse, requestId: string): Promise<void>;
  /** The link to the platform document that `/v1/openapi.json` carries. */
  openApiLink(): { 'x-platform-openapi': string };
}

/** The platform surfaces on the simulator's own server, next to `/v1`. */
export function mountPlatform(state: SimulatorState): PlatformMount {
  const origin = () => new URL(state.baseUrl).origin;
  let document: Record<string, unknown> | undefined;
  const handle = createPlatformHandler(state, PLATFORM_ROUTES, () => {
    document ??= buildPlatformOpenApi(PLATFORM_ROUTES, origin() + PLATFORM_PREFIX);
    return document;
  });
  return {
    owns: (pathname) => pathname.startsWith(PLATFORM_PREFIX + '/'),
    handle,
    openApiLink: () => ({ 'x-platform-openapi': origin() + PLATFORM_OPENAPI_PATH }),
  };
}
