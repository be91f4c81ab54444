import { z } from 'zod';
import { ResolvedGrant } from '../schemas.js';

/** Request and response shapes of section D (debug directory and grants) and the simulator's debug inspection routes. */

const RequestDigest = z.string().regex(/^sha256:[0-9a-f]{64}$/, 'sha256: followed by 64 lowercase hex');
const Scope = z.string().regex(/^[a-z][\s\S]{1,127}$/u, '2..128 characters starting with a lowercase letter');
const IdempotencyKey = z.string().min(1).max(255);
const SourceChannel = z.enum(['developer_debug', 'developer_local']);

export const DebugAppGrantRequest = z
  .object({
    calleeAppKey: z.string().min(1),
    apiVersion: z.string().min(1),
    scope: Scope,
    idempotencyKey: IdempotencyKey,
    requestDigest: RequestDigest,
  })
  .strict();

export const DebugIssuedGrant = z
  .object({
    /** The one-time plaintext: in the first answer only (a replay answers the fact without it). */
    grant: z.string().optional(),
    apiVersion: z.string(),
    sourceChannel: SourceChannel,
    expiresAt: z.iso.datetime(),
  })
  .strict();

export const DebugReceiverRequest = z
  .object({
    callerAppKey: z.string().min(1),
    apiVersion: z.string().min(1),
    scopes: z.array(Scope).min(1).max(32),
  })
  .strict();

export const DebugReceiver = z
  .object({
    receiverRef: z.string(),
    callerAppKey: z.string(),
    apiVersion: z.string(),
    scopes: z.array(z.string()),
    expiresAt: z.iso.datetime(),
  })
  .strict();

export const DebugReceiverRevoked = z.object({ revoked: z.literal(true) }).strict();

export const DebugPeerGrantRequest = z
  .object({
    receiverRef: z.string().min(1),
    calleeAppKey: z.string().min(1),
    apiVersion: z.string().min(1),
    scope: Scope,
    requestDigest: RequestDigest,
    idempotencyKey: IdempotencyKey,
  })
  .strict();

/** A resolved debug peer grant: the production resolved grant plus its `sourceChannel`. */
export const DebugResolvedGrant = ResolvedGrant.extend({ sourceChannel: SourceChannel }).strict();

/** Simulator-only: issue a CLI session directly (what section E's PKCE pairing does). */
export const SimulatorCliSessionRequest = z
  .object({
    appKey: z.string().min(1),
    versionId: z.string().min(1).optional(),
    user: z.enum(['manager', 'member', 'personal']),
    testAccountId: z.string().min(1).nullable().optional(),
  })
  .strict();

/** The CLI session (section "Developer resources"): token, binding, derived session, base addresses. */
export const CliSessionSchema = z
  .object({
    accessToken: z.string(),
    expiresAt: z.iso.datetime(),
    appId: z.string(),
    appKey: z.string(),
    appVersionId: z.string(),
    runtimeSessionId: z.string(),
    scopes: z.array(z.string()),
    testAccountId: z.string().nullable(),
    runtimeBaseUrl: z.string(),
    relayBaseUrl: z.string(),
    uploadBaseUrl: z.string(),
  })
  .strict();

/** Simulator-only: a provider withdraws (or reopens) online debugging of its capabilities. */
export const DebugWithdrawalRequest = z
  .object({ appKey: z.string().min(1), withdrawn: z.boolean() })
  .strict();

export const DebugWithdrawal = z.object({ appKey: z.string(), withdrawn: z.boolean() }).strict();
