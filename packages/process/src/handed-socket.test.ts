import { createServer, connect, type Server, type Socket } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { HandedSocket } from './handed-socket.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

/** A connected pair of sockets, as the launcher's pipes are. */
async function socketPair(): Promise<[Socket, Socket]> {
  const dir = mkdtempSync(join(tmpdir(), 'handed-'));
  const path = join(dir, 's');
  const server: Server = createServer();
  server.listen(path);
  await once(server, 'listening');
  const accepted = once(server, 'connection') as Promise<[Socket]>;
  const near = connect(path);
  await once(near, 'connect');
  const [far] = await accepted;
  cleanups.push(() => {
    near.destroy();
    far.destroy();
    server.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return [near, far];
}

describe('HandedSocket', () => {
  it('passes data both ways, writes made before the socket arrived included', async () => {
    const [near, far] = await socketPair();
    const handed = new HandedSocket();
    handed.write('early ');
    handed.attach(near);
    handed.write('late');
    far.setEncoding('utf8');
    let got = '';
    far.on('data', (d: string) => (got += d));
    far.write('back');
    const [echo] = (await once(handed, 'data')) as [Buffer];
    expect(echo.toString()).toBe('back');
    await expect.poll(() => got).toBe('early late');
  });

  // The socket ends its own writing side when its peer ends (it is not half-open), so by the time
  // a late reader drains the pipe and the stream ends in turn, the socket may be long finished:
  // ending it again must not fail the stream (that was an uncaught ERR_STREAM_ALREADY_FINISHED).
  it('ends cleanly when its output is read only after the socket has finished', async () => {
    const [near, far] = await socketPair();
    const handed = new HandedSocket();
    const errors: Error[] = [];
    handed.on('error', (error) => errors.push(error));
    handed.attach(near);
    far.end('unread output');
    await once(near, 'finish');
    await new Promise((resolve) => setTimeout(resolve, 20));
    let got = '';
    handed.setEncoding('utf8').on('data', (d: string) => (got += d));
    await once(handed, 'close');
    expect(got).toBe('unread output');
    expect(errors).toEqual([]);
  });

  it('ends a socket that arrives after the stream was ended', async () => {
    const [near, far] = await socketPair();
    const handed = new HandedSocket();
    handed.end('all of it');
    handed.attach(near);
    far.setEncoding('utf8');
    let got = '';
    far.on('data', (d: string) => (got += d));
    await once(far, 'end');
    expect(got).toBe('all of it');
  });
});
