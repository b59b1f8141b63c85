import { previewFrameMessageSchema, type PreviewFrameMessage } from '@tandem/shared';

/**
 * What the workspace answers a preview frame (workspace §7): AUTH_REQUEST gets AUTH_TOKEN, or
 * AUTH_ERROR when no token can be had (signed out). Anything else needs no answer here.
 */
export async function answerFrame(
  message: PreviewFrameMessage,
  token: () => Promise<string>,
): Promise<PreviewFrameMessage | null> {
  if (message.type !== 'AUTH_REQUEST') return null;
  try {
    return { type: 'AUTH_TOKEN', token: await token() };
  } catch (error) {
    return { type: 'AUTH_ERROR', error: error instanceof Error ? error.message : 'Not signed in' };
  }
}

/** A message from a frame, if it is one of ours; pages in the frame may post anything. */
export function parseFrameMessage(data: unknown): PreviewFrameMessage | null {
  const parsed = previewFrameMessageSchema.safeParse(data);
  return parsed.success ? parsed.data : null;
}

/** The path (with query and hash) of a frame's location, for the address bar. */
export function framePath(href: string, origin: string): string {
  try {
    const url = new URL(href);
    return url.origin === origin ? `${url.pathname}${url.search}${url.hash}` : href;
  } catch {
    return '/';
  }
}
