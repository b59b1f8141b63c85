/**
 * Whether `text` tags the bot (`@{slug}`), the way GitHub notifies a mention: a whole `@name`
 * (case-insensitive) not inside a longer name, an e-mail address or a path, and not in code
 * (fenced blocks, inline code) or quoted replies, where people show a mention without making one.
 */
export function mentionsBot(text: string | null | undefined, slug: string): boolean {
  if (!text || !slug) return false;
  const prose = text
    .replace(/^(`{3,}|~{3,})[^\n]*\n[\s\S]*?(^\1[^\n]*$|(?![\s\S]))/gm, ' ')
    .replace(/`[^`\n]*`/g, ' ')
    .replace(/^\s*>.*$/gm, ' ');
  const name = slug.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(^|[^\\w@./-])@${name}(?![\\w-])`, 'i').test(prose);
}

/** The App's bot account on the code host: GitHub names it `{slug}[bot]`, of type Bot. */
export function isBotAccount(account: { login: string; type?: string } | undefined, slug: string): boolean {
  if (!account) return false;
  return account.type === 'Bot' || account.login.toLowerCase() === `${slug.toLowerCase()}[bot]`;
}
