/** A JSON column of a select (a `json_build_object` or `json_agg`): text or already parsed, depending on the driver. */
export function parsedJson<T>(value: T | string): T {
  return typeof value === 'string' ? (JSON.parse(value) as T) : value;
}
