/**
 * Rows for a coalesced statement (coalesced.ts) as one JSON array, each JSON object given its
 * place in the array as `ord` first, so the statement can answer each caller by it. Each row is a
 * JSON object's text (it starts with `{` and has at least one field).
 */
export function orderedJsonRows(rows: readonly string[]): string {
  return `[${rows.map((row, i) => `{"ord":${i},${row.slice(1)}`).join(',')}]`;
}
