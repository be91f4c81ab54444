/**
 * A connection the server's parser refused: the status Node itself would send (431, 408, 400), and
 * nothing written where it would be read as part of another answer (a response in flight on the
 * socket has begun) or where nobody reads it (the peer reset the connection).
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { answerClientError } from '../../../src/main/host/http-serving.js';

function refused(code: string, inFlight?: { headersSent: boolean }) {
  const socket = new PassThrough() as PassThrough & { _httpMessage?: { headersSent: boolean } };
  if (inFlight) socket._httpMessage = inFlight;
  const written: string[] = [];
  socket.on('data', (chunk: Buffer) => written.push(chunk.toString('latin1')));
  socket.on('error', () => undefined);
  answerClientError(Object.assign(new Error(code), { code }), socket);
  return { written: () => written.join(''), socket };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('answerClientError', () => {
  it('answers the status Node would: 431 for oversized headers, 408 for a timeout, 400 otherwise', async () => {
    const oversized = refused('HPE_HEADER_OVERFLOW');
    const timedOut = refused('ERR_HTTP_REQUEST_TIMEOUT');
    const malformed = refused('HPE_INVALID_METHOD');
    await tick();
    expect(oversized.written()).toMatch(/^HTTP\/1\.1 431 /);
    expect(timedOut.written()).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    expect(malformed.written()).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n.*Connection: close/s);
  });

  it('a request whose response has not begun is still answered (its handler cannot finish it)', async () => {
    const pending = refused('ERR_HTTP_REQUEST_TIMEOUT', { headersSent: false });
    await tick();
    expect(pending.written()).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('writes nothing into a response that has begun, nor to a peer that reset: the socket only ends', async () => {
    const begun = refused('HPE_INVALID_CONSTANT', { headersSent: true });
    const reset = refused('ECONNRESET');
    await tick();
    expect(begun.written()).toBe('');
    expect(begun.socket.destroyed).toBe(true);
    expect(reset.written()).toBe('');
    expect(reset.socket.destroyed).toBe(true);
  });
});
