import { z } from 'zod';

export const databaseKindSchema = z.enum(['pglite', 'postgres']);
export type DatabaseKind = z.infer<typeof databaseKindSchema>;

export const healthResponseSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  version: z.string(),
  database: z.object({
    kind: databaseKindSchema,
    reachable: z.boolean(),
    latency_ms: z.number().nullable(),
  }),
  /** How agent commands are isolated: 'bubblewrap (…)' or 'process (…)'. */
  sandbox: z.string(),
});
export type HealthResponse = z.infer<typeof healthResponseSchema>;
