import {
  PREVIEW_ACTIVITY_INTERVAL_MS,
  PREVIEW_TOKEN_REFRESH_MS,
  previewResponseSchema,
  tempAuthTokenResponseSchema,
  type PreviewResponse,
} from '@tandem/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../api/client';
import { queryKeys } from '../../../api/query-keys';

const previewKey = queryKeys.agentPreview;

function openPreview(agentId: string, port: number, subdomain?: string): Promise<PreviewResponse> {
  return apiFetch('/api/agent/preview', {
    method: 'POST',
    body: { trajectory_id: agentId, port, ...(subdomain === undefined ? {} : { subdomain }) },
    schema: previewResponseSchema,
  });
}

/**
 * The preview address of one port. Asking again every 30 s is what keeps the subdomain registered
 * while the tab stays open (workspace §4); a closed tab lets it lapse after 70 minutes.
 */
export function usePreview(agentId: string, port: number) {
  const client = useQueryClient();
  const query = useQuery({
    queryKey: previewKey(agentId, port),
    queryFn: () => openPreview(agentId, port),
    refetchInterval: PREVIEW_ACTIVITY_INTERVAL_MS,
    refetchIntervalInBackground: true,
    retry: 1,
  });
  const rename = useMutation({
    mutationFn: (subdomain: string) => openPreview(agentId, port, subdomain),
    onSuccess: (preview) => client.setQueryData(previewKey(agentId, port), preview),
  });
  return { query, rename };
}

let cachedToken: { token: string; fetchedAt: number } | null = null;

/**
 * The credential a preview frame asks for (AUTH_REQUEST). One token serves every preview of the
 * page and is fetched again after an hour (workspace §7), well inside its two-hour life.
 */
export async function previewToken(now = Date.now()): Promise<string> {
  if (cachedToken && now - cachedToken.fetchedAt < PREVIEW_TOKEN_REFRESH_MS) return cachedToken.token;
  const { auth_token } = await apiFetch('/api/temp-auth-token', { schema: tempAuthTokenResponseSchema });
  cachedToken = { token: auth_token, fetchedAt: now };
  return auth_token;
}

/** Tests start from an empty cache. */
export function forgetPreviewToken(): void {
  cachedToken = null;
}

/**
 * A link that opens the preview in a tab of its own. A frame's cookie belongs to the workspace's
 * site, so the new tab signs in by itself with the token in the fragment (never sent to a server).
 */
export function openInNewTabUrl(previewUrl: string, path: string, token: string): string {
  const next = path.startsWith('/') ? path : '/';
  return `${previewUrl}__tandem/open?next=${encodeURIComponent(next)}#token=${encodeURIComponent(token)}`;
}
