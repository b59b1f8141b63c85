import DOMPurify from 'dompurify';
import { Marked } from 'marked';

/**
 * Markdown written by people and models (chat messages, pull-request bodies, review comments), as
 * GitHub shows it: GitHub-flavoured, line breaks kept. It is hostile input, so beyond DOMPurify's
 * script and handler removal: no images (a remote image is a tracking pixel and the page policy
 * allows any https image), no forms or styles, no ids (they would collide between messages), and
 * links open in a new tab without the opener or the referrer.
 */
const marked = new Marked({ gfm: true, breaks: true });

const FORBID_TAGS = [
  'img',
  'picture',
  'source',
  'video',
  'audio',
  'iframe',
  'form',
  'input',
  'button',
  'style',
];
const FORBID_ATTR = ['id', 'name', 'style', 'class'];

let hooked = false;
function linkHook(): void {
  if (hooked) return;
  hooked = true;
  DOMPurify.addHook('afterSanitizeAttributes', (node) => {
    if (node.tagName === 'A' && node.hasAttribute('href')) {
      node.setAttribute('target', '_blank');
      node.setAttribute('rel', 'noopener noreferrer nofollow');
    }
    // Code blocks scroll sideways: focusable, so keyboard users can scroll them (axe:
    // scrollable-region-focusable).
    if (node.tagName === 'PRE') node.setAttribute('tabindex', '0');
  });
}

export function renderMessageMarkdown(source: string): string {
  linkHook();
  // Trimmed: marked ends blocks with a newline, which would show as a trailing text node.
  const html = marked.parse(source, { async: false }).trim();
  return DOMPurify.sanitize(html, { USE_PROFILES: { html: true }, FORBID_TAGS, FORBID_ATTR });
}
