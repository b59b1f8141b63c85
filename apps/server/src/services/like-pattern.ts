/** A search term as an ILIKE pattern that matches it anywhere, its wildcards taken literally. */
export const containsPattern = (search: string): string => `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
