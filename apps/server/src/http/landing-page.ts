import type { FastifyRequest } from 'fastify';
import { SESSION_COOKIE, THEME_COOKIE } from '@tandem/shared';
import type { SiteConfig } from '../config/schema.js';
import { escapeHtml } from './escape-html.js';

/** The paths of the landing page; visitors without a session get landing.html there, not the SPA. */
export const LANDING_PATHS: ReadonlySet<string> = new Set(['/', '/landing']);

const SESSION_COOKIE_SET = new RegExp(`(?:^|;)\\s*${SESSION_COOKIE}=[^;\\s]`);

/**
 * Whether the request carries a session cookie at all, valid or not: such a visitor gets the SPA,
 * which knows how to handle an expired session. Read from the header so no session is verified.
 */
export function hasSessionCookie(request: Pick<FastifyRequest, 'headers'>): boolean {
  return SESSION_COOKIE_SET.test(request.headers.cookie ?? '');
}

/** The landing page's theme: the visitor's stored choice, else the system's (its CSS follows it). */
export type LandingTheme = 'light' | 'dark' | 'system';
export const LANDING_THEMES: readonly LandingTheme[] = ['light', 'dark', 'system'];

const THEME_COOKIE_VALUE = new RegExp(`(?:^|;)\\s*${THEME_COOKIE}=(light|dark)\\s*(?:;|$)`);

/**
 * The theme cookie's choice (the web app mirrors the stored theme into it), so the landing page is
 * sent already in it with no script before its paint. Anything but light or dark is no choice.
 */
export function landingTheme(request: Pick<FastifyRequest, 'headers'>): LandingTheme {
  const match = THEME_COOKIE_VALUE.exec(request.headers.cookie ?? '');
  return match?.[1] === 'light' || match?.[1] === 'dark' ? match[1] : 'system';
}

/** The page with its root element marked with the theme (none for the system's). */
export function withLandingTheme(html: string, theme: LandingTheme): string {
  return theme === 'system' ? html : html.replace(/<html\b/i, `<html data-theme="${theme}"`);
}

/**
 * landing.html with this deployment's claim and links filled in (its `<!--tandem:…-->` slots),
 * so they are on screen at the first paint without asking /api/config. The deployment's site
 * settings do not change while the server runs: this is done once, at start.
 */
export function fillLandingPage(
  html: string,
  site: Pick<SiteConfig, 'discordUrl' | 'supportEmail' | 'socialLinks' | 'landingClaim'>,
): string {
  const link = (href: string, label: string, attributes = '') =>
    `<a href="${escapeHtml(href)}"${attributes}>${escapeHtml(label)}</a>`;
  const external = ' target="_blank" rel="noopener"';
  const slots: Record<string, string> = {
    claim: site.landingClaim ? `<p>Installed on ${escapeHtml(site.landingClaim)} repositories</p>` : '',
    discord: site.discordUrl ? link(site.discordUrl, 'Discord', ` class="btn text"${external}`) : '',
    footer: [
      link(`mailto:${site.supportEmail}`, 'Contact'),
      ...site.socialLinks.map((social) => link(social.url, social.label, external)),
    ].join(''),
  };
  return html.replace(/<!--tandem:(\w+)-->/g, (slot, name: string) => slots[name] ?? slot);
}
