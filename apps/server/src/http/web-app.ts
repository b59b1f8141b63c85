import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorBody } from '@tandem/shared';

/** Paths owned by the server: an unknown one is a JSON 404, never the SPA's index.html. */
const SERVER_PREFIXES = ['/api/', '/auth/', '/asset/', '/user_asset/'];

export function isServerPath(url: string): boolean {
  const path = url.split('?')[0]!;
  return path === '/api' || SERVER_PREFIXES.some((prefix) => path.startsWith(prefix));
}

/**
 * Serves the built single-page app with history fallback: any other GET renders index.html so
 * client-side routes (and the client's own 404 page) work on reload and deep links.
 */
export async function registerWebApp(app: FastifyInstance, webDist: string): Promise<void> {
  const hasBuild = existsSync(join(webDist, 'index.html'));
  if (hasBuild) {
    await app.register(fastifyStatic, {
      root: webDist,
      wildcard: false,
      index: false,
      setHeaders(res, path) {
        // Vite fingerprints everything under assets/, so those can be cached forever.
        res.setHeader(
          'cache-control',
          path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    });
  } else {
    app.log.warn({ webDist }, 'web app not built: run `npm run build` (npm start does this for you)');
  }

  app.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) => {
    const isPage = (request.method === 'GET' || request.method === 'HEAD') && !isServerPath(request.url);
    const looksLikeFile = /\.[a-z0-9]{1,8}$/i.test(request.url.split('?')[0]!);
    if (isPage && !looksLikeFile) {
      if (!hasBuild) {
        return reply
          .status(503)
          .type('text/plain')
          .send('The Tandem web app is not built. Run `npm run build`.');
      }
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    const body: ErrorBody = { detail: 'Not Found', code: 'not_found' };
    return reply.status(404).send(body);
  });
}
