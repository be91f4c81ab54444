/**
 * The Content-Security-Policy of the studio, shared by the Electron shell (response headers and the
 * page's meta tag) and the browser host. No remote origin, no inline script, no eval.
 */
export function contentSecurityPolicy(options: { allowLoopbackSocket?: boolean } = {}): string {
  // framewright-media: the compare view reads an audio result's bytes to draw its waveform
  const connect = ["'self'", 'framewright-media:'];
  if (options.allowLoopbackSocket) connect.push('ws://127.0.0.1:*', 'ws://localhost:*');
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: framewright-media:",
    "media-src 'self' blob: framewright-media:",
    "font-src 'self' data:",
    `connect-src ${connect.join(' ')}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}
