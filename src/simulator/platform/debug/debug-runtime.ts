import { createHash } from 'node:crypto';
import type { SimulatorState } from '../../context.js';
import type { Identity } from '../../identities.js';
import { PLATFORM_PREFIX } from '../router.js';
import { DEBUG_PATH, RELAY_SEGMENT } from './paths.js';

/** `{debug_base_url}` relative to the origin. */
export const DEBUG_RUNTIME_PATH = PLATFORM_PREFIX + DEBUG_PATH;

/**
 * The public-interface path a request under `{debug_base_url}` names (`/models`, `/jobs/{id}`, …),
 * or undefined when the request is not for the online debugging runtime (the relay under
 * `/inter-app/` is a platform route).
 */
export function debugRuntimeRelative(pathname: string): string | undefined {
  if (pathname === DEBUG_RUNTIME_PATH) return '/';
  if (!pathname.startsWith(DEBUG_RUNTIME_PATH + '/')) return undefined;
  if (pathname.startsWith(DEBUG_RUNTIME_PATH + RELAY_SEGMENT)) return undefined;
  return pathname.slice(DEBUG_RUNTIME_PATH.length);
}

/**
 * The public-interface identity of a live CLI session's Bearer: one identity per debug subject
 * (the test account the pairing chose, or the developer), distinct from every personal-key
 * identity (`idn_…`) and every deployed identity (`plat_…`), so assets and jobs never cross.
 * Undefined for anything else (application credentials and personal keys included).
 */
export function debugIdentity(
  state: SimulatorState,
  authorization: string | undefined,
): Identity | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  const cli = state.platform.cliSessions.byToken(match?.[1]);
  if (!cli) return undefined;
  const subject = `${cli.subject.tenantId}\u0000${cli.subject.accountId}\u0000${cli.subject.userId}\u0000${cli.testAccountId ?? ''}`;
  return {
    id: 'dbg_' + createHash('sha256').update(subject).digest('hex').slice(0, 16),
    label: `debug:${cli.testAccountId ?? cli.subject.accountId}`,
  };
}

/** The public OpenAPI document as `{debug_base_url}/openapi.json` serves it: same paths, the CLI Bearer as credential. */
export function debugDocument(doc: Record<string, unknown>): Record<string, unknown> {
  const info = doc.info as Record<string, unknown>;
  const components = doc.components as Record<string, unknown>;
  return {
    ...doc,
    info: {
      ...info,
      title: 'Online debugging runtime (Framewright local simulator)',
      description:
        "The public interface's paths and shapes under {debug_base_url}, authenticated only by a live CLI session Bearer (1 hour, bound to application and version), acting as the pairing's test account. Personal keys and application credentials are refused (401); assets and jobs of personal, debug and deployed identities do not interoperate.",
    },
    components: {
      ...components,
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description: 'CLI session access token (cli-sessions:exchange)',
        },
      },
    },
  };
}
