import { afterEach, describe, expect, it } from 'vitest';
import {
  defaultListParams,
  pageIndex,
  readListParams,
  readStoredOrder,
  storeOrder,
  writeListParams,
} from './list-params';

const read = (query: string, admin = false) => readListParams(new URLSearchParams(query), admin);
const write = (query: string, next: Parameters<typeof writeListParams>[1], admin = false) =>
  writeListParams(new URLSearchParams(query), next, admin).toString();

describe('list URL params', () => {
  it('default to page 1, 25 rows, creator:me for a regular user and an empty search for an admin', () => {
    expect(read('')).toEqual({ page: 1, rowsPerPage: 25, searchTerm: 'creator:me' });
    expect(read('', true)).toEqual({ page: 1, rowsPerPage: 25, searchTerm: '' });
  });

  it('read what the URL says, and defaults for anything malformed', () => {
    expect(read('page=3&rowsPerPage=50&searchTerm=is%3Aarchived')).toEqual({
      page: 3,
      rowsPerPage: 50,
      searchTerm: 'is:archived',
    });
    expect(read('page=0&rowsPerPage=7')).toMatchObject({ page: 1, rowsPerPage: 25 });
    expect(read('page=abc&rowsPerPage=1000')).toMatchObject({ page: 1, rowsPerPage: 25 });
    // A regular user who cleared the search keeps an empty term in the URL.
    expect(read('searchTerm=').searchTerm).toBe('');
  });

  it('leave each parameter out when it equals its default, and keep other parameters', () => {
    expect(write('', defaultListParams(false))).toBe('');
    expect(write('page=2&rowsPerPage=10&x=1', defaultListParams(false))).toBe('x=1');
    expect(write('', { page: 2, rowsPerPage: 10, searchTerm: 'creator:me' })).toBe('page=2&rowsPerPage=10');
    expect(write('', { page: 1, rowsPerPage: 25, searchTerm: '' })).toBe('searchTerm=');
    expect(write('', { page: 1, rowsPerPage: 25, searchTerm: '' }, true)).toBe('');
    expect(write('', { page: 1, rowsPerPage: 25, searchTerm: 'creator:me' }, true)).toBe(
      'searchTerm=creator%3Ame',
    );
  });

  it('round-trip', () => {
    const params = { page: 4, rowsPerPage: 100, searchTerm: 'creator:bob fix' };
    expect(read(write('', params))).toEqual(params);
  });

  it('keep the page inside the pages that exist', () => {
    expect(pageIndex({ page: 1, rowsPerPage: 25, searchTerm: '' }, 0)).toBe(0);
    expect(pageIndex({ page: 3, rowsPerPage: 10, searchTerm: '' }, 30)).toBe(2);
    expect(pageIndex({ page: 4, rowsPerPage: 10, searchTerm: '' }, 30)).toBe(2);
  });
});

describe('order choice', () => {
  afterEach(() => localStorage.clear());

  it('is Newest First until one is saved in agentsOrder', () => {
    expect(readStoredOrder()).toBe('created_at');
    storeOrder('last_active');
    expect(localStorage.getItem('agentsOrder')).toBe('last_active');
    expect(readStoredOrder()).toBe('last_active');
    localStorage.setItem('agentsOrder', 'bogus');
    expect(readStoredOrder()).toBe('created_at');
  });
});
