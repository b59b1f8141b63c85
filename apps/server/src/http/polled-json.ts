import type { FastifyReply, FastifyRequest } from 'fastify';
import { COMPRESS_THRESHOLD_BYTES } from './compression.js';
import { chooseEncoding, compressBody, type Encoding } from './precompressed-html.js';

/**
 * A polled answer as it is sent: its JSON, and each compressed copy made on the first poll that
 * asks for it and kept with the answer for as long as the poll cache keeps it. Browsers send
 * Accept-Encoding, so a cached status-counts answer over the compression threshold was compressed
 * anew on every poll of every tab: 7.7k polls a second against 22k without Accept-Encoding
 * (docs/decisions.md "Polled answers serialized and compressed once").
 */
export class PolledJson {
  readonly body: Buffer;
  private readonly copies = new Map<Encoding, Promise<Buffer>>();

  constructor(json: string) {
    this.body = Buffer.from(json, 'utf8');
  }

  /** The body compressed as `encoding`: made once, shared by every poll that asks meanwhile. */
  compressed(encoding: Encoding): Promise<Buffer> {
    let copy = this.copies.get(encoding);
    if (!copy) {
      copy = compressBody(this.body, encoding);
      // A failed compression is not kept: the next poll tries again.
      copy.catch(() => this.copies.delete(encoding));
      this.copies.set(encoding, copy);
    }
    return copy;
  }
}

/**
 * Sends a polled answer as the request's Accept-Encoding allows, as @fastify/compress would (its
 * threshold, brotli before gzip): routes that use this turn the plugin off (`compress: false`).
 */
export async function sendPolledJson(
  request: FastifyRequest,
  reply: FastifyReply,
  answer: PolledJson,
): Promise<FastifyReply> {
  reply.type('application/json; charset=utf-8');
  if (answer.body.length < COMPRESS_THRESHOLD_BYTES) return reply.send(answer.body);
  // The representation depends on the header from this size on, whichever one this request gets.
  reply.header('vary', 'accept-encoding');
  const encoding = chooseEncoding(request.headers['accept-encoding']);
  if (!encoding) return reply.send(answer.body);
  const body = await answer.compressed(encoding);
  return reply.header('content-encoding', encoding).send(body);
}
