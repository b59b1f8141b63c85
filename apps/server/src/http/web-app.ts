import { existsSync, readFileSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorBody } from '@tandem/shared';
import { escapeHtml } from './escape-html.js';
import {
  hasSessionCookie,
  LANDING_PATHS,
  LANDING_THEMES,
  landingTheme,
  withLandingTheme,
  type LandingTheme,
} from './landing-page.js';
import {
  chooseEncoding,
  compressHtml,
  precompressHtml,
  type PrecompressedHtml,
} from './precompressed-html.js';
import { isServerPath } from './server-paths.js';

/**
 * Serves the built single-page app with history fallback: any other GET renders index.html so
 * client-side routes (and the client's own 404 page) work on reload and deep links.
 */
/** Tags for link previews (Open Graph) of a page, when the server knows something about it. */
export interface PageMeta {
  title: string;
  description: string;
  image?: { url: string; width: number; height: number };
}

function metaTags(meta: PageMeta): string {
  const tags = [
    ['og:type', 'article'],
    ['og:title', meta.title],
    ['og:description', meta.description],
    ...(meta.image
      ? [
          ['og:image', meta.image.url],
          ['og:image:width', String(meta.image.width)],
          ['og:image:height', String(meta.image.height)],
        ]
      : []),
  ];
  return tags
    .map(([property, content]) => `<meta property="${property}" content="${escapeHtml(content!)}" />`)
    .join('');
}

/** Vite fingerprints everything under assets/, so those never change; anything else is revalidated. */
export const IMMUTABLE_CACHE_CONTROL = 'public, max-age=31536000, immutable';

function staticCacheControl(path: string, assetsDir: string): string {
  return path.startsWith(assetsDir) ? IMMUTABLE_CACHE_CONTROL : 'no-cache';
}

export async function registerWebApp(
  app: FastifyInstance,
  webDist: string,
  options: {
    pageMeta?: (path: string, origin: string) => Promise<PageMeta | undefined>;
    /** Fills the deployment's values into landing.html (http/landing-page.ts), once. */
    landingPage?: (html: string) => string;
  } = {},
): Promise<void> {
  const hasBuild = existsSync(join(webDist, 'index.html'));
  const indexHtml = hasBuild ? readFileSync(join(webDist, 'index.html'), 'utf8') : '';
  // The landing page for visitors without a session (docs/decisions.md "Landing page without the
  // SPA"); a build from before it had none, and then everyone gets the SPA's landing page.
  const landingFile = join(webDist, 'landing.html');
  // One copy per theme (the theme cookie's choice, or none), each compressed once.
  let landingHtml: Record<LandingTheme, PrecompressedHtml> | undefined;
  if (hasBuild && existsSync(landingFile)) {
    const filled = (options.landingPage ?? ((html) => html))(readFileSync(landingFile, 'utf8'));
    landingHtml = Object.fromEntries(
      LANDING_THEMES.map((theme) => [theme, precompressHtml(withLandingTheme(filled, theme))]),
    ) as Record<LandingTheme, PrecompressedHtml>;
  }
  if (hasBuild) {
    const assetsDir = resolve(webDist, 'assets') + sep;
    await app.register(fastifyStatic, {
      root: webDist,
      wildcard: false,
      index: false,
      // The build writes brotli and gzip copies beside each text file (apps/web/build/precompress.ts);
      // the copy matching Accept-Encoding is sent as it is, never compressed per request.
      preCompressed: true,
      // landing.html is a template: it is sent filled in, at / and /landing only.
      globIgnore: ['**/*.br', '**/*.gz', 'landing.html'],
      // Otherwise send() adds its own `public, max-age=0` after setHeaders and overwrites ours.
      cacheControl: false,
      setHeaders(res, path) {
        res.setHeader('cache-control', staticCacheControl(path, assetsDir));
        // Caches must keep the brotli, gzip and plain copies apart.
        res.setHeader('vary', 'accept-encoding');
      },
    });
  } else {
    app.log.warn({ webDist }, 'web app not built: run `npm run build` (npm start does this for you)');
  }

  app.setNotFoundHandler(async (request: FastifyRequest, reply: FastifyReply) => {
    const isPage = (request.method === 'GET' || request.method === 'HEAD') && !isServerPath(request.url);
    const looksLikeFile = /\.[a-z0-9]{1,8}$/i.test(request.url.split('?')[0]!);
    if (isPage && !looksLikeFile) {
      if (!hasBuild) {
        return reply
          .status(503)
          .type('text/plain')
          .send('The Tandem web app is not built. Run `npm run build`.');
      }
      const path = request.url.split('?')[0]!;
      if (LANDING_PATHS.has(path) && landingHtml !== undefined) {
        // One URL, pages by cookie (session, theme): caches must not hand one visitor's page to
        // another. (Also for the SPA's file: @fastify/static's own Vary would be replaced by one set here.)
        reply.header('vary', 'accept-encoding, cookie');
        if (!hasSessionCookie(request)) {
          // Compressed once at start, like the build's files (the compression hook skips this handler).
          const encoding = chooseEncoding(request.headers['accept-encoding']);
          if (encoding) reply.header('content-encoding', encoding);
          return reply
            .header('cache-control', 'no-cache')
            .type('text/html; charset=utf-8')
            .send(landingHtml[landingTheme(request)][encoding ?? 'identity']);
        }
      }
      const meta = await options
        .pageMeta?.(path, `${request.protocol}://${request.host}`)
        .catch((error: unknown) => {
          request.log.warn({ err: error, path }, 'page metadata failed');
          return undefined;
        });
      if (meta) {
        const html = indexHtml
          .replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(meta.title)} · Tandem</title>`)
          .replace('</head>', `${metaTags(meta)}</head>`);
        // Built for this request, and sent from the not-found handler, which the compression
        // plugin never hooks: compressed here.
        const { body, encoding } = await compressHtml(html, request.headers['accept-encoding']);
        if (encoding) reply.header('content-encoding', encoding);
        // The landing paths already vary by cookie as well (set above).
        if (!reply.hasHeader('vary')) reply.header('vary', 'accept-encoding');
        return reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(body);
      }
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    const body: ErrorBody = { detail: 'Not Found', code: 'not_found' };
    return reply.status(404).send(body);
  });
}
