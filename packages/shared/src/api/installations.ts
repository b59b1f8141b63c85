import { z } from 'zod';

/** GET /api/config: what the web app needs to know about this deployment before sign-in. */
export const clientConfigSchema = z.object({
  product_name: z.string(),
  code_host_url: z.string(),
  /** The code host's page for installing the App on an account. */
  install_url: z.string(),
  app_slug: z.string(),
  /** Site links and claims; each is configurable per deployment and may be off. */
  site: z.object({
    discord_url: z.string().nullable(),
    support_email: z.string(),
    social_links: z.array(z.object({ label: z.string(), url: z.string() })),
    /** e.g. '50,000+': shown as 'installed on {n} repositories' when set. */
    landing_claim: z.string().nullable(),
    /** Who hosts the service and which model providers see data (privacy page). */
    cloud_host: z.string(),
    model_providers: z.array(z.string()),
  }),
});
export type ClientConfig = z.infer<typeof clientConfigSchema>;

/** POST /api/users/active-installation */
export const setActiveInstallationSchema = z.object({ installation_id: z.number().int().positive() });
export type SetActiveInstallation = z.infer<typeof setActiveInstallationSchema>;
