import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorBody, ValidationErrorBody } from '@tandem/shared';
import { AppError, ValidationError } from './app-error.js';
import { databaseBusy } from './database-busy.js';

export const DATABASE_BUSY = 'The server is busy; try again in a few seconds';
const BUSY_RETRY_SECONDS = 5;

/**
 * One place that turns every failure into a response. Malformed input is always a 422 with
 * FastAPI-style detail (never a 500); unknown errors are logged with the request id, which is
 * also returned so a user's report can be matched to the log line.
 */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | Error, request, reply) => {
    if (error instanceof ValidationError) return sendValidation(reply, { detail: error.issues });
    if (error instanceof AppError) {
      const body: ErrorBody & Record<string, unknown> = {
        detail: error.message,
        code: error.code,
        ...error.extra,
      };
      return reply.status(error.status).send(body);
    }
    const framework = fromFrameworkError(error as FastifyError, request);
    if (framework) return framework(reply);

    const context = { err: error, url: request.url, method: request.method };
    if (databaseBusy(error)) {
      // An overload the client can retry, not a bug: 503 with a hint of when, logged as a warning.
      request.log.warn(context, 'database refused a connection');
      const body: ErrorBody = { detail: DATABASE_BUSY, code: 'unavailable', request_id: request.id };
      return reply.status(503).header('retry-after', String(BUSY_RETRY_SECONDS)).send(body);
    }
    request.log.error(context, 'unhandled error');
    const body: ErrorBody = { detail: 'Internal Server Error', code: 'internal', request_id: request.id };
    return reply.status(500).send(body);
  });
}

function sendValidation(reply: FastifyReply, body: ValidationErrorBody) {
  return reply.status(422).send(body);
}

type Responder = (reply: FastifyReply) => FastifyReply;

/** Fastify's own errors for bad input, mapped to what a client of a FastAPI-style API expects. */
function fromFrameworkError(error: FastifyError, request: FastifyRequest): Responder | undefined {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return (reply) =>
        sendValidation(reply, {
          detail: [
            {
              loc: ['body'],
              msg: error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' ? 'Field required' : 'JSON decode error',
              type: error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' ? 'missing' : 'json_invalid',
            },
          ],
        });
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      // The body is not what its headers say it is: a broken request, not a wrong type.
      return (reply) =>
        reply
          .status(400)
          .send({ detail: 'Request body length does not match Content-Length', code: 'bad_request' });
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return (reply) =>
        sendValidation(reply, {
          detail: [
            {
              loc: ['body'],
              msg: `Unsupported request body type ${JSON.stringify(request.headers['content-type'] ?? '')}; send application/json`,
              type: 'content_type',
            },
          ],
        });
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return (reply) =>
        reply.status(413).send({ detail: 'Request body too large', code: 'payload_too_large' });
    default:
      break;
  }
  // Other 4xx raised by plugins (rate limit, cookie parsing…) keep their status and message.
  const status = error.statusCode;
  if (status && status >= 400 && status < 500) {
    return (reply) => reply.status(status).send({ detail: error.message, code: error.code ?? 'bad_request' });
  }
  return undefined;
}
