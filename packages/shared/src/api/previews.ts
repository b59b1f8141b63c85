import { z } from 'zod';
import { apiTimestampSchema } from './timestamp.js';

/**
 * Previews of ports an agent's processes serve (workspace §2, §4, §7). The browser shows a port
 * through its own origin, `{subdomain}` + the server's preview domain, never the product's origin:
 * pages an agent wrote must not run where the viewer's session cookie lives.
 */

/** The address other servers use to reach a machine's sandbox ports when none is configured. */
export const DEFAULT_SANDBOX_HOST = '127.0.0.1';

/** One entry of an agent's `cur_ports`: a port a process in its sandbox listens on. */
export const forwardedPortSchema = z.object({
  internal_port: z.number().int().min(1).max(65535),
  url: z.string().nullable().catch(null),
  script_path: z.string().nullable().catch(null),
  tandem_pid: z.number().int().nullable().catch(null),
  active: z.boolean().catch(true),
  /** Where the server reaches the port: the worker running the sandbox. Absent in older rows. */
  host: z.string().optional().catch(undefined),
  /**
   * The port on `host` that leads to `internal_port`, when they differ: an agent's processes live in
   * a network namespace of their own, so the worker forwards each port from a free host port.
   * Absent: `internal_port` itself is on `host` (process sandbox, older rows).
   */
  host_port: z.number().int().min(1).max(65535).optional().catch(undefined),
});
export type ForwardedPort = z.infer<typeof forwardedPortSchema>;

/** The well-formed entries of a stored `cur_ports` list; anything else is skipped. */
export function forwardedPortsOf(raw: readonly unknown[]): ForwardedPort[] {
  return raw.flatMap((entry) => {
    const parsed = forwardedPortSchema.safeParse(entry);
    return parsed.success ? [parsed.data] : [];
  });
}

/** Longest DNS label. */
export const SUBDOMAIN_MAX_LENGTH = 63;

/** A DNS label as preview subdomains use them: a-z, 0-9 and inner hyphens, 1 to 63 characters. */
export const SUBDOMAIN_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * The subdomain a user typed, as it will be tried (workspace §5): lower-cased, every character
 * outside a-z, 0-9 and '-' turned into '-'. Leading and trailing hyphens are dropped and the result
 * is cut to leave room for a collision suffix, because a DNS label may not start or end with one.
 */
export function normalizeSubdomain(input: string): string {
  return input
    .toLowerCase()
    .replace(/[^a-z0-9-]/g, '-')
    .slice(0, SUBDOMAIN_MAX_LENGTH - 5)
    .replace(/^-+|-+$/g, '');
}

/** POST /api/agent/preview: opens (or keeps alive, or renames) the preview of one port. */
export const previewRequestSchema = z.object({
  trajectory_id: z.string().uuid('Unknown agent'),
  port: z.number().int().min(1, 'Invalid port').max(65535, 'Invalid port'),
  /** A new subdomain for the preview; absent keeps the current one (or picks one). */
  subdomain: z
    .string()
    .max(200)
    .transform(normalizeSubdomain)
    .refine((s) => s.length > 0, 'Preview subdomain cannot be empty')
    .optional(),
});
export type PreviewRequest = z.input<typeof previewRequestSchema>;

export const previewResponseSchema = z.object({
  subdomain: z.string(),
  port: z.number(),
  /** The preview's address: its own origin, ending in '/'. */
  url: z.string(),
  /** When the registry entry lapses unless the preview is used again (ISO time). */
  expires_at: apiTimestampSchema,
});
export type PreviewResponse = z.infer<typeof previewResponseSchema>;

/** GET /api/temp-auth-token: a short-lived credential that only opens previews. */
export const tempAuthTokenResponseSchema = z.object({ auth_token: z.string() });

/** Registry entries lapse this long after their last use (workspace §4). */
export const PREVIEW_REGISTRY_TTL_MS = 70 * 60_000;
/** An open preview tab marks its entry as used this often (workspace §4). */
export const PREVIEW_ACTIVITY_INTERVAL_MS = 30_000;
/** The workspace fetches a fresh preview token this often (workspace §7). */
export const PREVIEW_TOKEN_REFRESH_MS = 60 * 60_000;
/** A preview token is valid this long: twice the refresh interval, so a late refresh never gaps. */
export const PREVIEW_TOKEN_TTL_MS = 2 * PREVIEW_TOKEN_REFRESH_MS;

/** Messages between the workspace and a preview frame (workspace §7 "Preview frame messaging"). */
export const previewFrameMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('AUTH_REQUEST') }),
  z.object({ type: z.literal('AUTH_TOKEN'), token: z.string() }),
  z.object({ type: z.literal('AUTH_ERROR'), error: z.string() }),
  z.object({ type: z.literal('SCREENSHOT_REQUEST') }),
  z.object({
    type: z.literal('SCREENSHOT_RESPONSE'),
    imageData: z.string().optional(),
    error: z.string().optional(),
  }),
  z.object({ type: z.literal('NAVIGATE_BACK') }),
  /** Sent by the frame on every page load, so the workspace can show where the preview is. */
  z.object({ type: z.literal('LOCATION'), href: z.string() }),
]);
export type PreviewFrameMessage = z.infer<typeof previewFrameMessageSchema>;
