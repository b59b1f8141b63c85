import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors/app-error.js';

/**
 * How many values (objects, arrays and the items in them) a JSON text holds, counted without
 * parsing it: `{`, `[` and the commas between items, outside strings. Stops counting at `limit`.
 */
export function jsonValueCount(text: string, limit = Number.POSITIVE_INFINITY): number {
  let count = 0;
  let inString = false;
  for (let i = 0; i < text.length && count <= limit; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b || c === 0x2c) count++;
  }
  return count;
}

export const JSON_BUDGET_MESSAGE = 'Request body has too many values';

/**
 * JSON bodies in `scope` may be up to `bodyLimit` bytes but hold at most `maxValues` values. A
 * large body is fine when it is a few long strings (images); the same bytes as millions of tiny
 * objects would take gigabytes once parsed, so those are refused (413) before parsing.
 */
export function limitJsonValues(scope: FastifyInstance, options: { bodyLimit: number; maxValues: number }) {
  const parse = scope.getDefaultJsonParser('error', 'error');
  scope.addContentTypeParser(
    'application/json',
    { parseAs: 'string', bodyLimit: options.bodyLimit },
    (request, body, done) => {
      if (jsonValueCount(body as string, options.maxValues) > options.maxValues) {
        done(new AppError('payload_too_large', JSON_BUDGET_MESSAGE), undefined);
        return;
      }
      parse(request, body as string, done);
    },
  );
}
