import { IMAGE_MESSAGES, IMAGE_TYPES, MAX_IMAGE_BYTES, MAX_IMAGES_PER_MESSAGE } from '@tandem/shared';

/** An image as the API takes it (workspace §3): base64 without the `data:` prefix, its type and name. */
export interface ImageAttachment {
  data: string;
  type: string;
  name: string;
}

export const TOO_MANY_IMAGES = `Up to ${MAX_IMAGES_PER_MESSAGE} images can be attached`;
export const PASTED_IMAGE_NAME = 'pasted-image';

/** `data:image/png;base64,AAAA` → `AAAA`. */
export function stripDataUrl(dataUrl: string): string {
  const comma = dataUrl.indexOf(',');
  return comma === -1 ? dataUrl : dataUrl.slice(comma + 1);
}

export function readImageFile(file: File, name = file.name): Promise<ImageAttachment> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve({ data: stripDataUrl(String(reader.result)), type: file.type, name });
    reader.onerror = () => reject(reader.error ?? new Error(`Could not read ${file.name}`));
    reader.readAsDataURL(file);
  });
}

/**
 * Which of `files` can join `attached` images: only `image/*` files (workspace §5) that the API
 * takes (PNG, JPEG, GIF, WebP up to 5 MB), at most 20 in all. `error` explains anything left out.
 */
export function acceptImages<F extends Pick<File, 'type' | 'size'>>(
  attached: number,
  files: readonly F[],
): { accepted: F[]; error: string | null } {
  let error: string | null = null;
  const usable = files.filter((file) => {
    if (!file.type.startsWith('image/')) return false;
    if (!(IMAGE_TYPES as readonly string[]).includes(file.type)) error = IMAGE_MESSAGES.type;
    else if (file.size > MAX_IMAGE_BYTES) error = IMAGE_MESSAGES.size;
    else return true;
    return false;
  });
  const room = Math.max(0, MAX_IMAGES_PER_MESSAGE - attached);
  if (usable.length > room) error = TOO_MANY_IMAGES;
  return { accepted: usable.slice(0, room), error };
}
