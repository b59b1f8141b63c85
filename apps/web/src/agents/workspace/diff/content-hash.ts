import type { DiffFile, FileContent } from '@tandem/shared';

/** Workspace spec: a content hash is the first 16 hex characters of the SHA-256 of the text. */
export async function contentHash(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)]
    .map((byte) => byte.toString(16).padStart(2, '0'))
    .join('')
    .slice(0, 16);
}

/**
 * The text a Viewed mark stands for: the file as the range leaves it. A new commit or live edit
 * to the file changes it (the mark goes), while moving only the start of the range keeps it.
 */
export function viewedText(file: DiffFile): string {
  const side: FileContent = file.modified;
  return side.status === 'ok' || side.status === 'not_found' ? side.contents : `\u0000${side.status}`;
}
