import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '@tandem/db';
import { ASSET_MAX_BYTES, ASSET_MODES, ASSET_TYPES, BLOG_MESSAGES, blogUpdateSchema } from '@tandem/shared';
import { z } from 'zod';
import { requireUser } from '../auth/authenticate.js';
import { AppError, forbidden, notFound } from '../errors/app-error.js';
import { parseRequest } from '../http/validation.js';
import { findAsset, saveAsset } from '../services/blog-assets.js';
import { getPost, listPosts, savePost } from '../services/blog.js';

const assetParams = z.object({
  asset_id: z.string().regex(/^[A-Za-z0-9_.-]{1,200}$/, 'Invalid asset id'),
  mode: z.enum(ASSET_MODES).default('default'),
});

/** Post ids are slugs; anything else (NUL included) could never name a post. */
const postParams = z.object({ post_id: z.string().max(200) });

function requireAdmin(request: FastifyRequest) {
  const user = requireUser(request);
  if (!user.admin) throw forbidden('Admins only');
  return user;
}

export async function blogRoutes(app: FastifyInstance, deps: { db: Db }): Promise<void> {
  const { db } = deps;

  app.get('/api/blog/', async () => listPosts(db, { includeDrafts: false }));
  app.get('/api/blog', async () => listPosts(db, { includeDrafts: false }));
  app.get('/api/blog/:post_id', async (request) => {
    const { post_id } = parseRequest(postParams, request.params, 'path');
    const post = await getPost(db, post_id, { includeDrafts: false });
    if (!post) throw notFound(BLOG_MESSAGES.notFound);
    return post;
  });

  app.get('/api/blog/admin', async (request) => {
    requireAdmin(request);
    return listPosts(db, { includeDrafts: true });
  });
  app.get('/api/blog/admin/:post_id', async (request) => {
    requireAdmin(request);
    const { post_id } = parseRequest(postParams, request.params, 'path');
    const post = await getPost(db, post_id, { includeDrafts: true });
    if (!post) throw notFound(BLOG_MESSAGES.notFound);
    return post;
  });
  app.post('/api/blog/update', async (request) => {
    requireAdmin(request);
    return savePost(db, parseRequest(blogUpdateSchema, request.body, 'body'));
  });

  const getAsset = async (request: FastifyRequest, reply: FastifyReply) => {
    const params = parseRequest(assetParams, request.params, 'path');
    const asset = await findAsset(db, params.asset_id, params.mode);
    if (!asset) throw notFound('Asset not found');
    return reply
      .type(asset.mimeType)
      .header('cache-control', 'public, max-age=300')
      .header('x-content-type-options', 'nosniff')
      .send(asset.bytes);
  };

  await app.register(async (scope) => {
    await scope.register(multipart, { limits: { fileSize: ASSET_MAX_BYTES, files: 1, fields: 0 } });
    const upload = async (request: FastifyRequest) => {
      requireAdmin(request);
      const params = parseRequest(assetParams, request.params, 'path');
      if (!request.isMultipart())
        throw new AppError('validation', 'Send the image as multipart/form-data in the field "file"');
      let file;
      try {
        file = await request.file();
      } catch (error) {
        // The multipart plugin's own errors carry a 4xx; the parser's (no boundary…) do not.
        if ((error as { statusCode?: number }).statusCode) throw error;
        throw new AppError('validation', 'Malformed multipart/form-data body');
      }
      if (!file || file.fieldname !== 'file')
        throw new AppError('validation', 'Send the image in the field "file"');
      if (!(ASSET_TYPES as readonly string[]).includes(file.mimetype)) {
        throw new AppError(
          'validation',
          `Unsupported image type ${file.mimetype}; use PNG, JPEG, GIF or WebP`,
        );
      }
      let bytes: Buffer;
      try {
        bytes = await file.toBuffer();
      } catch {
        throw new AppError('payload_too_large', `Images may be at most ${ASSET_MAX_BYTES / 1024 / 1024} MB`);
      }
      await saveAsset(db, { assetId: params.asset_id, mode: params.mode, mimeType: file.mimetype, bytes });
      return { success: true, asset_id: params.asset_id, mode: params.mode };
    };
    scope.get('/asset/:asset_id', getAsset);
    scope.get('/asset/:mode/:asset_id', getAsset);
    scope.post('/asset/:asset_id', upload);
    scope.post('/asset/:mode/:asset_id', upload);
  });
}
