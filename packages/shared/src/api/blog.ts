import { z } from 'zod';
import { apiTimestampSchema } from './timestamp.js';
import { userText } from './text.js';

export const blogPostSchema = z.object({
  id: z.string(),
  url: z.string(),
  title: z.string(),
  author: z.string(),
  content: z.string(),
  created_at: apiTimestampSchema,
  published: z.boolean(),
});
export type BlogPost = z.infer<typeof blogPostSchema>;
export const blogPostListSchema = z.array(blogPostSchema);

/** POST /api/blog/update: create (no id) or replace a post. */
export const blogUpdateSchema = z.object({
  id: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]{0,99}$/, 'Post id may only contain lower-case letters, digits and hyphens')
    .optional(),
  title: userText(z.string().trim().min(1, 'Title is required').max(300)),
  author: userText(z.string().trim().min(1, 'Author is required').max(200)),
  content: userText(z.string().max(1_000_000)),
  published: z.boolean().default(true),
});
export type BlogUpdate = z.input<typeof blogUpdateSchema>;

export const BLOG_MESSAGES = {
  listError: 'There was an error fetching posts. Please reload or try again later.',
  notFound: 'Post not found',
} as const;

export const coverImageId = (postId: string) => `${postId}_cover_image`;

export const ASSET_MODES = ['default', 'light', 'dark'] as const;
export type AssetMode = (typeof ASSET_MODES)[number];
export const ASSET_MAX_BYTES = 5 * 1024 * 1024;
/** Raster images only: SVG can carry script. */
export const ASSET_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
export const OG_IMAGE = { width: 1200, height: 630 } as const;
