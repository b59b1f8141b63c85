import { z } from 'zod';
import { sunsetSchema } from './sunset.js';
import { billingClientConfigSchema } from './billing-payments.js';
import { userText } from './text.js';

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
  /** Sunset mode's dates and texts; null unless an operator is winding the deployment down. */
  sunset: sunsetSchema.nullable().default(null),
  /** How cards are added (Stripe Elements or the local stand-in's form); null without billing. */
  billing: billingClientConfigSchema.nullable().default(null),
});
export type ClientConfig = z.infer<typeof clientConfigSchema>;

/** POST /api/users/active-installation */
export const setActiveInstallationSchema = z.object({ installation_id: z.number().int().positive() });
export type SetActiveInstallation = z.infer<typeof setActiveInstallationSchema>;

export const REPO_NAME_MESSAGES = {
  required: 'Repository name is required',
  invalid: 'Repository name can only contain letters, numbers, hyphens, underscores, and periods',
} as const;

export const REPO_NAME_PATTERN = /^[A-Za-z0-9_.-]+$/;

export function repoNameError(name: string): string | null {
  if (!name.trim()) return REPO_NAME_MESSAGES.required;
  if (!REPO_NAME_PATTERN.test(name.trim()) || name.trim().length > 100) return REPO_NAME_MESSAGES.invalid;
  return null;
}

/** The public JavaScript starter template new repositories start from by default (platform §9). */
export const DEFAULT_TEMPLATE = { owner: 'tandem-templates', repo: 'javascript-starter' } as const;

/** POST /api/installation/create-repo (installation from X-Installation-ID). */
export const createRepoSchema = z.object({
  repo_name: z
    .string()
    .trim()
    .min(1, REPO_NAME_MESSAGES.required)
    .max(100)
    .regex(REPO_NAME_PATTERN, REPO_NAME_MESSAGES.invalid),
  description: userText(z.string().max(350)).default(''),
  template_owner: z.string().max(100).default(DEFAULT_TEMPLATE.owner),
  template_repo: z.string().max(100).default(DEFAULT_TEMPLATE.repo),
  private: z.boolean().default(true),
});
export type CreateRepoRequest = z.input<typeof createRepoSchema>;
export const createRepoResponseSchema = z.object({ repo_owner: z.string(), repo_name: z.string() });

/** What the repositories page and the create dialog show per failure (platform §8). */
export const CREATE_REPO_ERRORS: Record<number, string> = {
  401: 'Unable to create repository. Please check your GitHub permissions.',
  409: 'A repository with this name already exists or is not installed.',
  403: 'Tandem does not have permission to create repositories.',
  422: 'Invalid repository name or template not found.',
};
export const CREATE_REPO_GENERIC_ERROR = 'There was an error creating the repository. Please try again.';
