import type { Socket } from 'node:net';
import { Duplex } from 'node:stream';

type Pending = { chunk: Buffer; callback: (error?: Error | null) => void };

/**
 * One of a launched process's pipes, usable from the start and joined to the real pipe (a socket
 * the launcher hands over) when it arrives: writes wait for it, data from it is passed on. Both
 * directions, as a pipe Node makes for a child is a socket pair (bwrap's --block-fd is written
 * by us, its --info-fd read). Ends as the pipe ends, and as with Node's own pipes an end that
 * nobody reads still ends the stream, so a process's 'close' never waits for a pipe no one reads.
 */
export class HandedSocket extends Duplex {
  #socket: Socket | undefined;
  #writes: Pending[] = [];
  #ending: ((error?: Error | null) => void) | undefined;

  constructor() {
    super({ allowHalfOpen: false });
  }

  attach(socket: Socket): void {
    if (this.destroyed) {
      socket.destroy();
      return;
    }
    this.#socket = socket;
    socket.on('data', (chunk: Buffer) => {
      if (!this.push(chunk)) socket.pause();
    });
    socket.on('end', () => {
      this.push(null);
      this.read(0);
    });
    socket.on('error', (error) => this.destroy(error));
    for (const { chunk, callback } of this.#writes.splice(0)) socket.write(chunk, callback);
    if (this.#ending) socket.end(this.#ending);
  }

  override _read(): void {
    this.#socket?.resume();
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    if (this.#socket) this.#socket.write(chunk, callback);
    else this.#writes.push({ chunk, callback });
  }

  override _final(callback: (error?: Error | null) => void): void {
    const socket = this.#socket;
    if (!socket) this.#ending = callback;
    // A socket that is not half-open ends its own writing side when its peer ends, so when a late
    // reader drains this stream and it ends in turn, the socket may be finished already; ending
    // it again would fail with ERR_STREAM_ALREADY_FINISHED.
    else if (socket.writableEnded || socket.destroyed) callback();
    else socket.end(callback);
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.#socket?.destroy();
    callback(error);
  }
}
