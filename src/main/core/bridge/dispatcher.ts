import { z } from 'zod';
import {
  bridgeContract,
  isMethodName,
  type BridgeContract,
  type MethodName,
  type MethodResult,
} from '../../../shared/bridge/contract.js';
import type { BridgeResponse } from '../../../shared/bridge/api.js';
import { DraftInvalidError } from '../../../shared/h3/violations.js';
import { AppError } from '../errors.js';
import { SecretStoreError } from '../secrets/secret-store.js';

type ParsedParams<M extends MethodName> = z.output<BridgeContract['methods'][M]['params']>;

/** One handler per contract method; it receives params already validated against the contract. */
export type BridgeHandlers = {
  [M in MethodName]: (params: ParsedParams<M>) => Promise<MethodResult<M>> | MethodResult<M>;
};

export interface BridgeDispatcher {
  /** Validates and runs one call. Never throws: every failure becomes `{ ok: false, error }`. */
  dispatch(method: unknown, params: unknown): Promise<BridgeResponse>;
}

export interface DispatcherOptions {
  /** Where unexpected handler failures are reported (already redacted by the caller's logger). */
  onUnexpectedError?: (method: string, error: unknown) => void;
}

export function createBridgeDispatcher(
  handlers: BridgeHandlers,
  options: DispatcherOptions = {},
): BridgeDispatcher {
  return {
    async dispatch(method, params) {
      if (!isMethodName(method)) {
        return {
          ok: false,
          error: {
            code: 'bridge.unknown_method',
            message: `Unknown bridge method ${JSON.stringify(String(method)).slice(0, 80)}.`,
          },
        };
      }
      const spec = bridgeContract.methods[method];
      const parsed = spec.params.safeParse(params ?? {});
      if (!parsed.success) {
        return {
          ok: false,
          error: {
            code: 'bridge.invalid_params',
            message: `Invalid parameters for "${method}": ${z.prettifyError(parsed.error)}`,
            details: parsed.error.issues.map((issue) => ({ path: issue.path, message: issue.message })),
          },
        };
      }
      let result: unknown;
      try {
        const handler = handlers[method] as (p: unknown) => unknown;
        result = await handler(parsed.data);
      } catch (error) {
        if (error instanceof AppError) {
          return { ok: false, error: { code: error.code, message: error.message, details: error.details } };
        }
        if (error instanceof DraftInvalidError) {
          return {
            ok: false,
            error: { code: error.code, message: error.message, details: error.violations },
          };
        }
        if (error instanceof SecretStoreError) {
          // secret-store messages are written to be shown and never contain the secret
          return { ok: false, error: { code: `secrets.${error.code}`, message: error.message } };
        }
        options.onUnexpectedError?.(method, error);
        return {
          ok: false,
          error: {
            code: 'internal',
            message: `"${method}" failed unexpectedly in the core; see the app log.`,
          },
        };
      }
      const checked = spec.result.safeParse(result);
      if (!checked.success) {
        options.onUnexpectedError?.(method, checked.error);
        return {
          ok: false,
          error: {
            code: 'bridge.invalid_result',
            message: `The core answered "${method}" with an invalid result.`,
          },
        };
      }
      return { ok: true, result: checked.data };
    },
  };
}

/**
 * A dispatcher that counts the calls it is answering (a workspace with calls in flight stays
 * open), and `inUse` to count other work (an upload, a media read) the same way.
 */
export function countingCalls(answering: BridgeDispatcher): {
  dispatcher: BridgeDispatcher;
  inUse<T>(work: () => Promise<T>): Promise<T>;
  inFlight(): number;
} {
  let inFlight = 0;
  const inUse = async <T>(work: () => Promise<T>): Promise<T> => {
    inFlight += 1;
    try {
      return await work();
    } finally {
      inFlight -= 1;
    }
  };
  return {
    dispatcher: {
      ...answering,
      dispatch: (method, params) => inUse(() => answering.dispatch(method, params)),
    },
    inUse,
    inFlight: () => inFlight,
  };
}
