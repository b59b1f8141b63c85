import { LEAD_DATA_KEYS } from '@tandem/shared';

/** Visitors who asked not to be tracked (Do Not Track or Global Privacy Control) are not. */
export function trackingRefused(nav: Navigator & { globalPrivacyControl?: boolean }, win: Window): boolean {
  const dnt = nav.doNotTrack ?? (win as Window & { doNotTrack?: string }).doNotTrack;
  return dnt === '1' || dnt === 'yes' || nav.globalPrivacyControl === true;
}

/** Where a visitor came from (platform §9): utm_source, else linkedin, google, another host, else website. */
export function trafficSource(params: URLSearchParams, referrer: string, ownHost: string): string {
  const utm = params.get('utm_source');
  if (utm) return utm;
  let host: string;
  try {
    host = referrer ? new URL(referrer).hostname : '';
  } catch {
    host = '';
  }
  if (!host || host === ownHost) return 'website';
  if (/(^|\.)linkedin\.com$|(^|\.)lnkd\.in$/.test(host)) return 'linkedin';
  if (/(^|\.)google\./.test(host)) return 'google';
  return host;
}

/** The lead data of platform §3 from the landing URL. */
export function leadData(params: URLSearchParams, referrer: string, ownHost: string, variant: string | null) {
  const data: Record<string, string> = {};
  for (const key of LEAD_DATA_KEYS) {
    const value = key === 'landing_variant' ? variant : params.get(key);
    if (value) data[key] = value;
  }
  data.utm_source = trafficSource(params, referrer, ownHost);
  return data;
}
