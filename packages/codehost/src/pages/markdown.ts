import MarkdownIt, { type Token } from 'markdown-it';

/**
 * GitHub-flavoured Markdown for the code host's pages (PR and issue bodies, comments, READMEs).
 * Everything rendered here is written by agents, repositories or commenters, so it is hostile:
 * raw HTML is never parsed (`html: false` turns it into text), and links keep only the schemes an
 * allowlist names, so `javascript:`, `data:`, `vbscript:`, `file:` and anything unknown are dropped.
 */
const md = new MarkdownIt({ html: false, linkify: true, typographer: false });

/** Relative links, fragments and these schemes; nothing else becomes a link or an image. */
const SAFE_SCHEMES = new Set(['http', 'https', 'mailto']);

md.validateLink = (url: string): boolean => {
  const value = url.trim().toLowerCase();
  // A scheme is whatever precedes the first ':' when no '/', '?' or '#' comes before it.
  const match = /^([^/?#]*?):/.exec(value);
  if (!match) return true;
  return SAFE_SCHEMES.has(match[1]!);
};

// Links leave without passing on who referred them, and are not endorsements.
md.renderer.rules.link_open = (tokens, idx, options, _env, self) => {
  tokens[idx]!.attrSet('rel', 'nofollow noopener noreferrer');
  return self.renderToken(tokens, idx, options);
};

/** GFM task lists: a list item starting "[ ] " or "[x] " gets a read-only checkbox. */
md.core.ruler.after('inline', 'task-lists', (state) => {
  const tokens = state.tokens;
  for (let i = 2; i < tokens.length; i++) {
    const inline = tokens[i]!;
    if (
      inline.type !== 'inline' ||
      tokens[i - 1]!.type !== 'paragraph_open' ||
      tokens[i - 2]!.type !== 'list_item_open'
    )
      continue;
    const first = inline.children?.[0];
    const match = first?.type === 'text' ? /^\[([ xX])\]\s+/.exec(first.content) : null;
    if (!first || !match) continue;
    first.content = first.content.slice(match[0].length);
    const box = new state.Token('task_checkbox', 'input', 0);
    box.meta = { checked: match[1] !== ' ' };
    inline.children!.unshift(box);
    tokens[i - 2]!.attrJoin('class', 'task-list-item');
  }
});

md.renderer.rules.task_checkbox = (tokens: Token[], idx: number) => {
  const checked = (tokens[idx]!.meta as { checked: boolean }).checked;
  // A disabled checkbox still needs a name for screen readers.
  return `<input type="checkbox" disabled${checked ? ' checked' : ''} aria-label="${checked ? 'Done' : 'Not done'}"> `;
};

/** Sanitised HTML for Markdown source; safe to insert into a page as is. */
export function renderMarkdown(source: string): string {
  return `<div class="markdown">${md.render(source)}</div>`;
}
