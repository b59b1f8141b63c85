import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const INLINE_SCRIPT = /<script\b(?![^>]*\bsrc\s*=)[^>]*>([\s\S]*?)<\/script>/gi;

/**
 * CSP source expressions (`'sha256-…'`) for the inline scripts of an HTML page: the web app's
 * index.html sets the theme before the first paint (the app shell), and the policy allows exactly
 * that script, never inline scripts in general.
 */
export function inlineScriptHashes(html: string): string[] {
  return [...html.matchAll(INLINE_SCRIPT)]
    .map((match) => match[1]!)
    .filter((body) => body.trim() !== '')
    .map((body) => `'sha256-${createHash('sha256').update(body, 'utf8').digest('base64')}'`);
}

/**
 * The hashes for the built web app's pages, index.html (its theme script) and landing.html (none
 * today: its theme comes from a cookie), or none when it is not built.
 */
export function webAppScriptHashes(webDist: string): string[] {
  const hashes = ['index.html', 'landing.html']
    .map((page) => join(webDist, page))
    .filter((file) => existsSync(file))
    .flatMap((file) => inlineScriptHashes(readFileSync(file, 'utf8')));
  return [...new Set(hashes)];
}
