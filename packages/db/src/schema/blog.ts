import { boolean, index, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { bytea } from './bytea.js';

/** Blog posts (platform §3); `content` is HTML, sanitised on the way in. */
export const blogPosts = pgTable(
  'blog_posts',
  {
    id: text('id').primaryKey(),
    title: text('title').notNull(),
    author: text('author').notNull(),
    content: text('content').notNull(),
    published: boolean('published').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 6 }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, precision: 6 }).notNull().defaultNow(),
  },
  (t) => [index('blog_posts_published_created_idx').on(t.published, t.createdAt)],
);

/** Images served at /asset/{id} and /asset/{mode}/{id}; `mode` is default, light or dark. */
export const assets = pgTable(
  'assets',
  {
    assetId: text('asset_id').notNull(),
    mode: text('mode').notNull().default('default'),
    mimeType: text('mime_type').notNull(),
    bytes: bytea('bytes').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true, precision: 6 }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.assetId, t.mode] })],
);
