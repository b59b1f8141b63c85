import { z } from 'zod';

/** GET /api/config: what the web app needs to know about this deployment before sign-in. */
export const clientConfigSchema = z.object({
  product_name: z.string(),
  code_host_url: z.string(),
  /** The code host's page for installing the App on an account. */
  install_url: z.string(),
  app_slug: z.string(),
});
export type ClientConfig = z.infer<typeof clientConfigSchema>;

/** POST /api/users/active-installation */
export const setActiveInstallationSchema = z.object({ installation_id: z.number().int().positive() });
export type SetActiveInstallation = z.infer<typeof setActiveInstallationSchema>;
