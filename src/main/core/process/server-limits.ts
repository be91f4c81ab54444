import type { Server } from 'node:http';

/**
 * The bounds every HTTP server of Framewright runs with (both hosts, the share server, the pairing
 * listener): a client that sends its headers or its request slowly, opens connection after
 * connection, or keeps an idle one open cannot hold the process's memory or sockets for long.
 */
export interface ServerLimits {
  /** The request's headers must have arrived within this long (slow headers are dropped: 408). */
  headersTimeoutMs: number;
  /** The whole request, body included, within this long (uploads included). */
  requestTimeoutMs: number;
  /** An idle kept-alive connection is closed after this long. */
  keepAliveTimeoutMs: number;
  /** Connections open at once; one more is closed as it arrives. */
  maxConnections: number;
}

/** 15 s for headers, 5 minutes for a whole request, 5 s idle, 1024 connections. */
export const DEFAULT_SERVER_LIMITS: ServerLimits = {
  headersTimeoutMs: 15_000,
  requestTimeoutMs: 300_000,
  keepAliveTimeoutMs: 5_000,
  maxConnections: 1024,
};

/**
 * The options every server is created with: Node checks the header and request timeouts of open
 * connections on this interval (its default, 30 s, would let a slow client stay twice as long).
 */
export const SERVER_OPTIONS = { connectionsCheckingInterval: 1_000 } as const;

/** Applies the limits to a server (before it listens); answers the server. */
export function withServerLimits<S extends Server>(server: S, limits: Partial<ServerLimits> = {}): S {
  const l = { ...DEFAULT_SERVER_LIMITS, ...limits };
  server.headersTimeout = l.headersTimeoutMs;
  server.requestTimeout = l.requestTimeoutMs;
  server.keepAliveTimeout = l.keepAliveTimeoutMs;
  server.maxConnections = l.maxConnections;
  return server;
}

/**
 * Whether a request's `Host` names one of `hosts` (`host:port`, as a browser sends it): a server on
 * loopback answers only requests addressed to it (a DNS-rebinding page addresses another name).
 */
export function hostIsOneOf(hostHeader: string | undefined, hosts: readonly string[]): boolean {
  const host = (hostHeader ?? '').toLowerCase();
  return host !== '' && hosts.some((h) => h.toLowerCase() === host);
}
