import { and, desc, eq } from 'drizzle-orm';
import sanitizeHtml from 'sanitize-html';
import { assets, blogPosts, type Db } from '@tandem/db';
import { coverImageId, OG_IMAGE, type BlogPost, type blogUpdateSchema } from '@tandem/shared';
import type { z } from 'zod';
import { gradientPng } from './cover-image.js';

/** What blog HTML may contain: text formatting, links, images, code, tables. Never script or styles. */
export function sanitizeBlogHtml(html: string): string {
  return sanitizeHtml(html, {
    allowedTags: [...sanitizeHtml.defaults.allowedTags, 'img', 'h1', 'h2', 'figure', 'figcaption'],
    allowedAttributes: {
      a: ['href', 'title', 'target', 'rel'],
      img: ['src', 'alt', 'title', 'width', 'height'],
      code: ['class'],
      '*': ['id'],
    },
    allowedSchemes: ['http', 'https', 'mailto'],
    transformTags: { a: sanitizeHtml.simpleTransform('a', { rel: 'noopener noreferrer' }) },
  });
}

export function slugify(title: string): string {
  const slug = title
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80);
  return slug || 'post';
}

type Row = typeof blogPosts.$inferSelect;

function toPost(row: Row): BlogPost {
  return {
    id: row.id,
    url: `/blog/${row.id}`,
    title: row.title,
    author: row.author,
    content: row.content,
    created_at: row.createdAt.toISOString(),
    published: row.published,
  };
}

export async function listPosts(db: Db, options: { includeDrafts: boolean }): Promise<BlogPost[]> {
  const rows = await db
    .select()
    .from(blogPosts)
    .where(options.includeDrafts ? undefined : eq(blogPosts.published, true))
    .orderBy(desc(blogPosts.createdAt));
  return rows.map(toPost);
}

export async function getPost(
  db: Db,
  id: string,
  options: { includeDrafts: boolean },
): Promise<BlogPost | undefined> {
  const [row] = await db
    .select()
    .from(blogPosts)
    .where(
      options.includeDrafts ? eq(blogPosts.id, id) : and(eq(blogPosts.id, id), eq(blogPosts.published, true)),
    )
    .limit(1);
  return row ? toPost(row) : undefined;
}

/** Creates (id from the title, made unique) or replaces a post; the HTML is sanitised first. */
export async function savePost(db: Db, input: z.infer<typeof blogUpdateSchema>): Promise<BlogPost> {
  const content = sanitizeBlogHtml(input.content);
  let id = input.id;
  if (!id) {
    const base = slugify(input.title);
    id = base;
    for (let n = 2; await getPost(db, id, { includeDrafts: true }); n++) id = `${base}-${n}`;
  }
  const values = {
    title: input.title,
    author: input.author,
    content,
    published: input.published,
    updatedAt: new Date(),
  };
  const [row] = await db
    .insert(blogPosts)
    .values({ id, ...values })
    .onConflictDoUpdate({ target: blogPosts.id, set: values })
    .returning();
  return toPost(row!);
}

const WELCOME = {
  id: 'introducing-tandem',
  title: 'Introducing Tandem',
  author: 'The Tandem team',
  content: `<p>Tandem puts AI coding agents to work on your GitHub repositories — and keeps you in the loop.</p>
<h2>Watch it work</h2>
<p>An agent clones your repository into a sandbox, reads the code, runs your tests, commits and opens a pull request. Every step shows up in a live chat: the files it reads, its edits, its shell, its commits.</p>
<h2>Steer it</h2>
<p>Send a message at any time; the agent picks it up at its next step. Leave review comments on lines in the diff window, pause it, or hand it the next task.</p>
<h2>Start free</h2>
<p>Every new installation gets 3000 free credits. You pay the model's cost plus 19.5 %, and a per-message budget keeps any single task in check.</p>`,
};

/** A fresh installation's blog is not empty: the welcome post, written once. */
export async function ensureWelcomePost(db: Db): Promise<void> {
  const [existing] = await db.select({ id: blogPosts.id }).from(blogPosts).limit(1);
  if (existing) return;
  await db
    .insert(blogPosts)
    .values({ ...WELCOME, content: sanitizeBlogHtml(WELCOME.content) })
    .onConflictDoNothing();
  // Its cover (the list and link previews show /asset/{id}_cover_image): a generated gradient in the
  // brand's blues, replaceable from the admin editor like any cover.
  await db
    .insert(assets)
    .values({
      assetId: coverImageId(WELCOME.id),
      mimeType: 'image/png',
      bytes: gradientPng(OG_IMAGE.width, OG_IMAGE.height, [25, 118, 210], [13, 38, 76]),
    })
    .onConflictDoNothing();
}
