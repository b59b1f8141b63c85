/** Product-wide constants that the server, the web app and the CLI must agree on. */
export const PRODUCT_NAME = 'Tandem';
export const PRODUCT_SLUG = 'tandem';

/** Local storage keys named by the spec (platform §9). */
export const STORAGE_KEYS = {
  theme: 'theme',
  installation: 'installation',
  landingVariant: 'landingVariant',
  lead: 'lead',
  leadId: 'lead_id',
  partyAgentWhatsThis: 'partyAgentWhatsThis',
} as const;

export const SESSION_COOKIE = 'access_token';
/**
 * The stored theme choice ('light' | 'dark'), mirrored from local storage into a cookie so the
 * server can send the landing page already in it, with no script before its first paint.
 */
export const THEME_COOKIE = 'theme';
/** Header a same-origin client sends on state-changing calls authenticated by cookie (CSRF defence). */
export const CSRF_HEADER = 'x-tandem-csrf';
export const INSTALLATION_HEADER = 'x-installation-id';

/** Credits: 1 credit = 1 cent = 100 ledger units (hundredths of a cent). */
export const LEDGER_UNITS_PER_CREDIT = 100;
export const FREE_CREDITS_PER_INSTALLATION = 3000;
export const PRICE_MARGIN = 0.195;
export const DEFAULT_AGENT_BUDGET_CREDITS = 1500;
