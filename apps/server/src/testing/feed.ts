import { conversationResponseSchema, type ConversationItem } from '@tandem/shared';
import type { App } from '../app.js';

/** An agent's newest feed page as the holder of `token` sees it (GET /api/agent/conversation). */
export async function feedOf(
  app: Pick<App, 'server'>,
  token: string,
  agentId: string,
): Promise<ConversationItem[]> {
  const res = await app.server.inject({
    url: `/api/agent/conversation?trajectory_id=${agentId}`,
    headers: { authorization: `Bearer ${token}` },
  });
  if (res.statusCode !== 200) throw new Error(`conversation answered ${res.statusCode}: ${res.body}`);
  return conversationResponseSchema.parse(res.json()).conversation;
}
