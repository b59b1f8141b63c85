import type { PreviewFrameMessage } from '@tandem/shared';
import { useEffect, useRef, useState, type RefObject } from 'react';
import { previewToken } from './preview-api';
import { answerFrame, framePath, parseFrameMessage } from './frame-messages';

const SCREENSHOT_TIMEOUT_MS = 20_000;

/**
 * Talks to a preview frame (workspace §7): answers its AUTH_REQUEST, follows where it is, asks it
 * to go back, and asks it for a screenshot. Only messages from this frame's window and from the
 * preview's origin count.
 */
export function usePreviewFrame(frame: RefObject<HTMLIFrameElement | null>, origin: string | null) {
  const [path, setPath] = useState('/');
  const screenshotWaiter = useRef<((message: PreviewFrameMessage) => void) | null>(null);

  useEffect(() => {
    if (!origin) return;
    const onMessage = (event: MessageEvent) => {
      const source = frame.current?.contentWindow;
      if (!source || event.source !== source || event.origin !== origin) return;
      const message = parseFrameMessage(event.data);
      if (!message) return;
      if (message.type === 'LOCATION') setPath(framePath(message.href, origin));
      if (message.type === 'SCREENSHOT_RESPONSE') screenshotWaiter.current?.(message);
      void answerFrame(message, () => previewToken()).then((reply) => {
        if (reply) source.postMessage(reply, origin);
      });
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, [frame, origin]);

  const post = (message: PreviewFrameMessage) => {
    if (origin) frame.current?.contentWindow?.postMessage(message, origin);
  };

  /** A PNG data URL of what the frame shows. */
  const screenshot = () =>
    new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => {
        screenshotWaiter.current = null;
        reject(new Error('The preview did not answer. Reload it and try again.'));
      }, SCREENSHOT_TIMEOUT_MS);
      screenshotWaiter.current = (message) => {
        if (message.type !== 'SCREENSHOT_RESPONSE') return;
        clearTimeout(timer);
        screenshotWaiter.current = null;
        if (message.imageData) resolve(message.imageData);
        else reject(new Error(message.error ?? 'The page could not be captured'));
      };
      post({ type: 'SCREENSHOT_REQUEST' });
    });

  return { path, back: () => post({ type: 'NAVIGATE_BACK' }), screenshot };
}
