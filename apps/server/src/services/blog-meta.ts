import type { Db } from '@tandem/db';
import { coverImageId, OG_IMAGE } from '@tandem/shared';
import type { PageMeta } from '../http/web-app.js';
import { getPost } from './blog.js';

/** Link previews for /blog/{id}: title, the first words, and the 1200×630 cover image. */
export async function blogPageMeta(db: Db, path: string, origin: string): Promise<PageMeta | undefined> {
  const match = /^\/blog\/([a-z0-9][a-z0-9-]{0,99})\/?$/.exec(path);
  if (!match) return undefined;
  const post = await getPost(db, match[1]!, { includeDrafts: false });
  if (!post) return undefined;
  const text = post.content
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return {
    title: post.title,
    description: text.length > 200 ? `${text.slice(0, 197)}…` : text,
    image: { url: `${origin}/asset/${coverImageId(post.id)}`, ...OG_IMAGE },
  };
}
