/**
 * The agents list's search syntax (workspace §9): `creator:{username}` (`creator:me` too),
 * `is:archived`, `is:unarchived` and free text. The quick filters edit one part of the term and
 * keep the rest as typed.
 */

export type QuickFilterId = 'mine' | 'allCreators' | 'showArchived' | 'hideArchived' | 'showAll';

export const QUICK_FILTERS: readonly { id: QuickFilterId; label: string }[] = [
  { id: 'mine', label: 'My agents' },
  { id: 'allCreators', label: 'All creators' },
  { id: 'showArchived', label: 'Show archived' },
  { id: 'hideArchived', label: 'Hide archived' },
  { id: 'showAll', label: 'Show all' },
];

const CREATOR = 'creator:';
const IS = 'is:';

const tokens = (term: string): string[] => term.trim().split(/\s+/).filter(Boolean);
const startsWith = (token: string, prefix: string) => token.toLowerCase().startsWith(prefix);

/** Drops every token with `prefix` and puts `replacement` where the first one was (else at the end). */
function replaceTokens(term: string, prefix: string, replacement: string | null): string {
  const parts = tokens(term);
  const first = parts.findIndex((token) => startsWith(token, prefix));
  const kept = parts.filter((token) => !startsWith(token, prefix));
  if (replacement !== null) kept.splice(first === -1 ? kept.length : first, 0, replacement);
  return kept.join(' ');
}

/** The search term after clicking a quick filter. */
export function applyQuickFilter(term: string, filter: QuickFilterId): string {
  switch (filter) {
    case 'mine':
      return replaceTokens(term, CREATOR, 'creator:me');
    case 'allCreators':
      return replaceTokens(term, CREATOR, null);
    case 'showArchived':
      return replaceTokens(term, IS, 'is:archived');
    case 'hideArchived':
      return replaceTokens(term, IS, 'is:unarchived');
    case 'showAll':
      return replaceTokens(term, IS, null);
  }
}

/** Whether the term already reads as the filter would make it (the chip shows as selected). */
export function isQuickFilterActive(term: string, filter: QuickFilterId): boolean {
  return tokens(applyQuickFilter(term, filter)).join(' ') === tokens(term).join(' ');
}

/**
 * Whether the list still shows an agent once it is archived, so its row updates in place instead
 * of leaving (workspace §4 names `is:archived`). A search without an `is:` filter lists archived
 * agents too, so their rows also stay: removing them would only have the next poll bring them
 * back. Only `is:unarchived` drops the row. See docs/decisions.md.
 */
export function keepsArchivedRows(term: string): boolean {
  return !tokens(term).some((token) => token.toLowerCase() === 'is:unarchived');
}
