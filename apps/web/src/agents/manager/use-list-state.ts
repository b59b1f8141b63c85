import { useCallback, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import {
  defaultListParams,
  readListParams,
  readStoredOrder,
  SEARCH_DEBOUNCE_MS,
  storeOrder,
  writeListParams,
  type AgentOrder,
  type ListParams,
} from './list-params';

/**
 * The agents list's state: page, rows per page and search term live in the URL (so back and forward
 * restore them), the order in local storage. The search box edits a draft that reaches the URL
 * 500 ms after the last keystroke.
 */
export function useListState(admin: boolean) {
  const [searchParams, setSearchParams] = useSearchParams();
  const params = readListParams(searchParams, admin);

  const update = useCallback(
    (patch: Partial<ListParams>) =>
      setSearchParams((current) =>
        writeListParams(current, { ...readListParams(current, admin), ...patch }, admin),
      ),
    [admin, setSearchParams],
  );

  // The draft follows the URL when the URL changes under it (back/forward, a quick filter).
  const [draft, setDraft] = useState(params.searchTerm);
  const [followed, setFollowed] = useState(params.searchTerm);
  if (followed !== params.searchTerm) {
    setFollowed(params.searchTerm);
    setDraft(params.searchTerm);
  }

  useEffect(() => {
    if (draft === params.searchTerm) return;
    const timer = window.setTimeout(() => {
      // Marked as followed first, so a keystroke landing meanwhile is not overwritten.
      setFollowed(draft);
      update({ searchTerm: draft, page: 1 });
    }, SEARCH_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [draft, params.searchTerm, update]);

  const setSearchNow = useCallback(
    (term: string) => {
      setDraft(term);
      setFollowed(term);
      update({ searchTerm: term, page: 1 });
    },
    [update],
  );

  const reset = useCallback(() => {
    const defaults = defaultListParams(admin);
    setDraft(defaults.searchTerm);
    setFollowed(defaults.searchTerm);
    update(defaults);
  }, [admin, update]);

  const [order, setOrderState] = useState<AgentOrder>(readStoredOrder);
  const setOrder = useCallback(
    (next: AgentOrder) => {
      storeOrder(next);
      setOrderState(next);
      update({ page: 1 });
    },
    [update],
  );

  return {
    params,
    draft,
    setDraft,
    setSearchNow,
    setPage: (page: number) => update({ page }),
    setRowsPerPage: (rowsPerPage: number) => update({ rowsPerPage, page: 1 }),
    reset,
    order,
    setOrder,
  };
}
