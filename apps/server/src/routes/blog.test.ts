import { blogPostListSchema, blogPostSchema } from '@tandem/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureWelcomePost } from '../services/blog.js';
import { createTestApp, type TestApp, type TestUser } from '../testing/test-app.js';

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

function multipart(field: string, filename: string, type: string, bytes: Buffer) {
  const boundary = '----tandemtest';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return {
    payload: Buffer.concat([head, bytes, tail]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

describe('blog and assets', () => {
  let app: TestApp;
  let ada: TestUser;
  let bob: TestUser;
  const as = (user: TestUser) => ({ authorization: `Bearer ${user.token}` });

  beforeAll(async () => {
    app = await createTestApp();
    await app.server.ready();
    ada = await app.signIn({ username: 'ada', admin: true });
    bob = await app.signIn({ username: 'bob' });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('starts with the welcome post, once', async () => {
    await ensureWelcomePost(app.database.db);
    await ensureWelcomePost(app.database.db);
    const posts = blogPostListSchema.parse((await app.server.inject('/api/blog/')).json());
    expect(posts.map((p) => p.id)).toEqual(['introducing-tandem']);
    // Its cover exists: a 1200×630 PNG, not a broken image.
    const cover = await app.server.inject('/asset/introducing-tandem_cover_image');
    expect(cover.statusCode).toBe(200);
    expect(cover.headers['content-type']).toBe('image/png');
    expect([cover.rawPayload.readUInt32BE(16), cover.rawPayload.readUInt32BE(20)]).toEqual([1200, 630]);
  });

  it('lets admins publish sanitised posts, newest first, and nobody else', async () => {
    const denied = await app.server.inject({
      method: 'POST',
      url: '/api/blog/update',
      headers: as(bob),
      payload: { title: 'Nope', author: 'Bob', content: '<p>x</p>' },
    });
    expect(denied.statusCode).toBe(403);

    const created = await app.server.inject({
      method: 'POST',
      url: '/api/blog/update',
      headers: as(ada),
      payload: {
        title: 'Agents that fix CI',
        author: 'Ada',
        content: '<p onclick="steal()">Hello<script>alert(1)</script> <a href="javascript:x()">bad</a></p>',
      },
    });
    const post = blogPostSchema.parse(created.json());
    expect(post.id).toBe('agents-that-fix-ci');
    expect(post.content).toBe('<p>Hello <a rel="noopener noreferrer">bad</a></p>');

    const draft = await app.server.inject({
      method: 'POST',
      url: '/api/blog/update',
      headers: as(ada),
      payload: { title: 'Draft', author: 'Ada', content: '<p>wip</p>', published: false },
    });
    expect(draft.statusCode).toBe(200);

    const list = blogPostListSchema.parse((await app.server.inject('/api/blog/')).json());
    expect(list.map((p) => p.id)).toEqual(['agents-that-fix-ci', 'introducing-tandem']);
    const adminList = blogPostListSchema.parse(
      (await app.server.inject({ url: '/api/blog/admin', headers: as(ada) })).json(),
    );
    expect(adminList.map((p) => p.id)).toContain('draft');
    expect((await app.server.inject({ url: '/api/blog/admin', headers: as(bob) })).statusCode).toBe(403);
  });

  it("answers 'Post not found' for a missing or unpublished post", async () => {
    for (const id of ['no-such-post', 'draft']) {
      const res = await app.server.inject(`/api/blog/${id}`);
      expect(res.statusCode).toBe(404);
      expect(res.json().detail).toBe('Post not found');
    }
  });

  it('stores images for admins, checks type and size, and falls back from light/dark to default', async () => {
    const upload = (url: string, user: TestUser, type = 'image/png', bytes = PNG) => {
      const { payload, headers } = multipart('file', 'cover.png', type, bytes);
      return app.server.inject({ method: 'POST', url, payload, headers: { ...headers, ...as(user) } });
    };
    expect((await upload('/asset/agents-that-fix-ci_cover_image', bob)).statusCode).toBe(403);
    expect((await upload('/asset/agents-that-fix-ci_cover_image', ada, 'image/svg+xml')).statusCode).toBe(
      422,
    );
    expect(
      (await upload('/asset/agents-that-fix-ci_cover_image', ada, 'image/png', Buffer.alloc(6 * 1024 * 1024)))
        .statusCode,
    ).toBe(413);
    expect((await upload('/asset/agents-that-fix-ci_cover_image', ada)).json()).toMatchObject({
      success: true,
    });

    const dark = await app.server.inject('/asset/dark/agents-that-fix-ci_cover_image');
    expect(dark.statusCode).toBe(200);
    expect(dark.headers['content-type']).toBe('image/png');
    expect(dark.rawPayload.equals(PNG)).toBe(true);
    expect((await app.server.inject('/asset/missing')).statusCode).toBe(404);
    expect((await app.server.inject('/asset/sepia/x')).statusCode).toBe(422);
  });

  it('gives a post page Open Graph tags with a 1200x630 image', async () => {
    const page = await app.server.inject('/blog/agents-that-fix-ci');
    expect(page.body).toContain('<meta property="og:title" content="Agents that fix CI" />');
    expect(page.body).toContain('/asset/agents-that-fix-ci_cover_image');
    expect(page.body).toContain('<meta property="og:image:width" content="1200" />');
    expect(page.body).toContain('<meta property="og:image:height" content="630" />');
    expect((await app.server.inject('/blog/no-such-post')).body).not.toContain('og:title');
  });
});
