import { INSTALLATION_HEADER } from '@tandem/shared';

/** Billing calls name their installation in X-Installation-ID (platform §7). */
export function installationHeaders(installationId: number): Record<string, string> {
  return { [INSTALLATION_HEADER]: String(installationId) };
}
