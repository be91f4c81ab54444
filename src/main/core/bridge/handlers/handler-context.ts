import type { z } from 'zod';
import type { CoreServices } from '../../app/core-services.js';
import type { Logger } from '../../logging/logger.js';
import type { SettingsStore } from '../../settings/settings-store.js';
import type { EventHub } from '../event-hub.js';

/** What every domain's handlers may use: the core services, pushed events, settings, the log. */
export interface HandlerContext {
  readonly services: CoreServices;
  readonly events: EventHub;
  readonly settings: SettingsStore;
  readonly logger: Logger;
  readonly host: 'electron' | 'browser';
}

type MethodMap = Record<string, { params: z.ZodType; result: z.ZodType }>;

/** Handlers for one domain's methods, each receiving params already validated by the dispatcher. */
export type DomainHandlers<M extends MethodMap> = {
  [K in keyof M]: (
    params: z.output<M[K]['params']>,
  ) => Promise<z.output<M[K]['result']>> | z.output<M[K]['result']>;
};
