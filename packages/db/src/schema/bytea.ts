import { customType } from 'drizzle-orm/pg-core';

/** Binary columns: pg hands back a Buffer, PGlite a Uint8Array; callers always get a Buffer. */
export const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});
