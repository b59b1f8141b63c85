import { useSearchParams } from 'react-router';

export const ROWS_PER_PAGE_OPTIONS = [10, 25, 50, 100];

/**
 * Paging and search of an admin table, kept in the URL (DESIGN.md §7) with defaults left out:
 * `page` (1-based), `rowsPerPage` (25) and `searchTerm`.
 */
export function useListParams() {
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number(params.get('page')) || 1);
  const rowsPerPage = ROWS_PER_PAGE_OPTIONS.includes(Number(params.get('rowsPerPage')))
    ? Number(params.get('rowsPerPage'))
    : 25;
  const search = params.get('searchTerm') ?? '';
  const update = (changes: Record<string, string | null>) =>
    setParams((current) => {
      const next = new URLSearchParams(current);
      for (const [key, value] of Object.entries(changes)) {
        if (value === null || value === '') next.delete(key);
        else next.set(key, value);
      }
      return next;
    });
  return {
    params,
    /** Sets (or, with null or '', removes) URL parameters, keeping the others. */
    update,
    query: { page, rows_per_page: rowsPerPage, search },
    search: (term: string) => update({ searchTerm: term.trim() || null, page: null }),
    /** For TablePagination: its pages are 0-based. */
    pagination: {
      page: page - 1,
      rowsPerPage,
      rowsPerPageOptions: ROWS_PER_PAGE_OPTIONS,
      onPageChange: (_: unknown, next: number) => update({ page: next === 0 ? null : String(next + 1) }),
      onRowsPerPageChange: (event: { target: { value: string } }) =>
        update({ rowsPerPage: event.target.value === '25' ? null : event.target.value, page: null }),
    },
  };
}

/**
 * The sort of an admin table with sortable columns, kept in the same URL: `sortBy` (the default
 * left out) and `descending` (true unless 'false'). Sorting again by the same column flips it.
 */
export function useSortParams<Sort extends string>(
  list: Pick<ReturnType<typeof useListParams>, 'params' | 'update'>,
  sorts: readonly Sort[],
  fallback: Sort,
) {
  const raw = list.params.get('sortBy') ?? '';
  const sortBy = (sorts as readonly string[]).includes(raw) ? (raw as Sort) : fallback;
  const descending = list.params.get('descending') !== 'false';
  const sortOn = (column: Sort) =>
    list.update({
      sortBy: column === fallback ? null : column,
      descending: column === sortBy && descending ? 'false' : null,
      page: null,
    });
  return { sortBy, descending, sortOn };
}
