import { and, eq } from 'drizzle-orm';
import { eventImages, type Db } from '@tandem/db';
import {
  IMAGE_MESSAGES,
  IMAGE_TYPES,
  MAX_IMAGE_BYTES,
  MAX_IMAGES_PER_MESSAGE,
  type imageAttachmentSchema,
} from '@tandem/shared';
import type { z } from 'zod';
import { AppError, notFound } from '../errors/app-error.js';

export interface DecodedImage {
  mimeType: string;
  name: string;
  bytes: Buffer;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * Checks and decodes attachments before anything is stored (a data: URL prefix is accepted). The
 * schema already caps their number and length; the decoded size is checked here (HTTP 413).
 */
export function decodeImages(images: z.infer<typeof imageAttachmentSchema>[]): DecodedImage[] {
  if (images.length > MAX_IMAGES_PER_MESSAGE) throw new AppError('payload_too_large', IMAGE_MESSAGES.count);
  return images.map((image) => {
    const mimeType = image.type.toLowerCase();
    if (!(IMAGE_TYPES as readonly string[]).includes(mimeType))
      throw new AppError('bad_request', IMAGE_MESSAGES.type);
    const data = image.data.replace(/^data:[^,]*,/, '').replace(/\s+/g, '');
    if (!data || data.length % 4 !== 0 || !BASE64.test(data))
      throw new AppError('bad_request', IMAGE_MESSAGES.data);
    const bytes = Buffer.from(data, 'base64');
    if (bytes.length > MAX_IMAGE_BYTES) throw new AppError('payload_too_large', IMAGE_MESSAGES.size);
    return { mimeType, name: image.name || `image-${mimeType.slice(6)}`, bytes };
  });
}

export const imageRows = (agentId: string, actionUuid: string, images: DecodedImage[]) =>
  images.map((image, i) => ({ agentId, actionUuid, n: i + 1, ...image }));

/** An attached image; the caller checks that the viewer may see `agentId`. */
export async function findEventImage(db: Db, actionUuid: string, n: number) {
  const [image] = await db
    .select()
    .from(eventImages)
    .where(and(eq(eventImages.actionUuid, actionUuid), eq(eventImages.n, n)));
  if (!image) throw notFound('Image not found');
  return image;
}
