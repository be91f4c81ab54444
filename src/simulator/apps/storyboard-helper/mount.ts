import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import type { SimulatorState } from '../../context.js';
import { sendJson } from '../../http.js';
import { ImageSigner } from './images.js';
import { buildStoryboardOpenApi } from './openapi.js';
import { createAppHandler, STORYBOARD_BASE_PATH, type AppRoute } from './router.js';
import { storyboardRoutes } from './routes.js';
import { FramewrightSender, sendToFramewrightRoute } from './send-to-framewright.js';
import { PanelWriteStore, STORYBOARD_STATE_FILE } from './store.js';

export { STORYBOARD_BASE_PATH } from './router.js';

export interface AppMount {
  /** Whether a request path belongs to this application's backend. */
  owns(pathname: string): boolean;
  handle(req: IncomingMessage, res: ServerResponse, requestId: string): Promise<void>;
}

/**
 * storyboard-helper's backend on the simulator's own port, at `{origin}/apps/storyboard-helper`
 * (its business base address). Its written panel results are kept in `DIR/storyboard-helper.jsonl`
 * when the simulator has a data folder (the platform state's log exists exactly then).
 */
export function mountStoryboardHelper(state: SimulatorState): AppMount {
  const store = PanelWriteStore.open(
    state.platform.log ? path.join(state.dirs.root, STORYBOARD_STATE_FILE) : undefined,
  );
  // its own routes, and the simulator-only send of a board to the person's Framewright
  const routes: AppRoute[] = [...storyboardRoutes, sendToFramewrightRoute(new FramewrightSender())];
  let document: Record<string, unknown> | undefined;
  const openApiRoute: AppRoute = {
    method: 'GET',
    path: '/openapi.json',
    handler: async (ctx) => {
      ctx.req.resume();
      document ??= buildStoryboardOpenApi(routes, ctx.baseUrl);
      sendJson(ctx.res, 200, document);
    },
    doc: {
      operationId: 'openApi',
      summary: 'This document',
      tags: ['meta'],
      security: 'none',
      responses: { 200: { description: 'OpenAPI 3.1', contentType: 'application/json' } },
    },
  };
  const handle = createAppHandler(state, [openApiRoute, ...routes], store, new ImageSigner(state.clock));
  return {
    owns: (pathname) => pathname === STORYBOARD_BASE_PATH || pathname.startsWith(STORYBOARD_BASE_PATH + '/'),
    handle,
  };
}
