import { AGENT_ORDERS } from '@tandem/shared';
import { readStored, writeStored } from '../../lib/storage';

/** Agents list constants (workspace §5, §9). */
export const ROWS_PER_PAGE_OPTIONS = [10, 25, 50, 100] as const;
export const DEFAULT_ROWS_PER_PAGE = 25;
export const DEFAULT_PAGE = 1;
/** Pagination controls appear only from this many agents on. */
export const PAGINATION_MIN_COUNT = 10;
export const SEARCH_DEBOUNCE_MS = 500;
export const LIST_POLL_MS = 10_000;

export const PARAM = { page: 'page', rowsPerPage: 'rowsPerPage', searchTerm: 'searchTerm' } as const;

export interface ListParams {
  /** 1-based, as the API counts. */
  page: number;
  rowsPerPage: number;
  searchTerm: string;
}

/** A regular user starts on their own agents; the admin list starts on everyone's (workspace §6). */
export function defaultSearchTerm(admin: boolean): string {
  return admin ? '' : 'creator:me';
}

export function defaultListParams(admin: boolean): ListParams {
  return { page: DEFAULT_PAGE, rowsPerPage: DEFAULT_ROWS_PER_PAGE, searchTerm: defaultSearchTerm(admin) };
}

/** The list state in the URL; anything missing or malformed reads as its default. */
export function readListParams(params: URLSearchParams, admin: boolean): ListParams {
  const page = Number(params.get(PARAM.page));
  const rows = Number(params.get(PARAM.rowsPerPage));
  const search = params.get(PARAM.searchTerm);
  return {
    page: Number.isInteger(page) && page >= 1 ? page : DEFAULT_PAGE,
    rowsPerPage: (ROWS_PER_PAGE_OPTIONS as readonly number[]).includes(rows) ? rows : DEFAULT_ROWS_PER_PAGE,
    searchTerm: search ?? defaultSearchTerm(admin),
  };
}

/**
 * The URL's query with the list state written in: each parameter is left out when it equals its
 * default (workspace §2); other parameters are kept.
 */
export function writeListParams(current: URLSearchParams, next: ListParams, admin: boolean): URLSearchParams {
  const params = new URLSearchParams(current);
  const defaults = defaultListParams(admin);
  const set = (name: string, value: string, fallback: string) => {
    if (value === fallback) params.delete(name);
    else params.set(name, value);
  };
  set(PARAM.page, String(next.page), String(defaults.page));
  set(PARAM.rowsPerPage, String(next.rowsPerPage), String(defaults.rowsPerPage));
  set(PARAM.searchTerm, next.searchTerm, defaults.searchTerm);
  return params;
}

export type AgentOrder = (typeof AGENT_ORDERS)[number];
export const DEFAULT_ORDER: AgentOrder = 'created_at';
export const ORDER_STORAGE_KEY = 'agentsOrder';
export const ORDER_OPTIONS: readonly { value: AgentOrder; label: string }[] = [
  { value: 'created_at', label: 'Newest First' },
  { value: 'created_at_asc', label: 'Oldest First' },
  { value: 'last_active', label: 'Recently Active' },
];

export function isAgentOrder(value: unknown): value is AgentOrder {
  return typeof value === 'string' && (AGENT_ORDERS as readonly string[]).includes(value);
}

/** The last order chosen in this browser, else Newest First. */
export function readStoredOrder(): AgentOrder {
  const stored = readStored(ORDER_STORAGE_KEY);
  return isAgentOrder(stored) ? stored : DEFAULT_ORDER;
}

export function storeOrder(order: AgentOrder): void {
  writeStored(ORDER_STORAGE_KEY, order);
}

/** The 0-based page MUI shows, kept inside the pages that exist (a shrinking list may leave it past the end). */
export function pageIndex(params: ListParams, count: number): number {
  const lastPage = Math.max(0, Math.ceil(count / params.rowsPerPage) - 1);
  return Math.min(params.page - 1, lastPage);
}
