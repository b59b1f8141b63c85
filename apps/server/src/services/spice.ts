import { and, asc, eq, gte, lt } from 'drizzle-orm';
import { IMAGE_REF } from '@tandem/agent';
import { spiceMessages, type Db } from '@tandem/db';

/** A content part as the admins' Spice Messages tab shows it (workspace §3 "Spice item"). */
export type SpicePart =
  | { type: 'text'; text: string }
  | { type: 'image_url'; image_url: string }
  | { type: 'thinking'; thinking: string };

export interface SpiceItem {
  id: string;
  timestamp: string;
  role: 'user' | 'assistant';
  content: SpicePart[];
  response_stats: Record<string, number> | null;
}

function partOf(part: Record<string, unknown>): SpicePart {
  switch (part.type) {
    case 'text':
      return { type: 'text', text: String(part.text ?? '') };
    case 'reasoning':
      return { type: 'thinking', thinking: String(part.text ?? '') };
    case 'image': {
      const ref = typeof part.image === 'string' ? part.image : '';
      return {
        type: 'image_url',
        image_url: ref.startsWith(IMAGE_REF) ? `/user_asset/event/${ref.slice(IMAGE_REF.length)}` : '',
      };
    }
    case 'tool-call':
      return { type: 'text', text: `→ ${String(part.toolName)}(${JSON.stringify(part.input ?? {})})` };
    case 'tool-result': {
      const output = part.output as { value?: unknown } | undefined;
      const value = typeof output?.value === 'string' ? output.value : JSON.stringify(output?.value ?? '');
      return { type: 'text', text: `← ${String(part.toolName)}: ${value}` };
    }
    default:
      return { type: 'text', text: JSON.stringify(part) };
  }
}

/**
 * The model's context over the same window as a conversation page, in the spec's shape: tool calls
 * and results become text parts (the spec knows only user and assistant roles).
 */
export async function spiceWindow(
  db: Db,
  agentId: string,
  window: { from: string | null; before: string | undefined },
): Promise<SpiceItem[]> {
  const rows = await db
    .select()
    .from(spiceMessages)
    .where(
      and(
        eq(spiceMessages.agentId, agentId),
        window.from ? gte(spiceMessages.timestamp, window.from) : undefined,
        window.before ? lt(spiceMessages.timestamp, window.before) : undefined,
      ),
    )
    .orderBy(asc(spiceMessages.timestamp));
  return rows.map((row) => {
    const content = Array.isArray(row.content)
      ? (row.content as Record<string, unknown>[]).map(partOf)
      : [{ type: 'text' as const, text: String(row.content) }];
    return {
      id: row.id,
      timestamp: row.timestamp,
      role: row.role === 'assistant' ? 'assistant' : 'user',
      content,
      response_stats: (row.responseStats as Record<string, number> | null) ?? null,
    };
  });
}
