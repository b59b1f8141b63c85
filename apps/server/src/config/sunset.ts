import { DEFAULT_SUNSET_REFUND_NOTE, type Sunset } from '@tandem/shared';
import { z } from 'zod';

const day = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a day as YYYY-MM-DD')
  .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)), 'must be a real day')
  .optional();

/** The sunset settings of the environment (DESIGN.md §9): all off unless TANDEM_SUNSET_LAST_DAY is set. */
export const sunsetEnv = {
  TANDEM_SUNSET_LAST_DAY: day,
  TANDEM_SUNSET_SHUTDOWN_DAY: day,
  TANDEM_SUNSET_BUY_CREDITS: z.enum(['on', 'off']).default('off'),
  TANDEM_SUNSET_REFUND_NOTE: z.string().trim().min(1).max(300).default(DEFAULT_SUNSET_REFUND_NOTE),
};

/** Sunset mode from parsed settings, or a [variable, problem] pair for the ConfigError. */
export function parseSunset(e: {
  TANDEM_SUNSET_LAST_DAY?: string | undefined;
  TANDEM_SUNSET_SHUTDOWN_DAY?: string | undefined;
  TANDEM_SUNSET_BUY_CREDITS: 'on' | 'off';
  TANDEM_SUNSET_REFUND_NOTE: string;
}): Sunset | null | [string, string] {
  if (!e.TANDEM_SUNSET_LAST_DAY) {
    return e.TANDEM_SUNSET_SHUTDOWN_DAY
      ? ['TANDEM_SUNSET_LAST_DAY', 'is needed with TANDEM_SUNSET_SHUTDOWN_DAY']
      : null;
  }
  if (!e.TANDEM_SUNSET_SHUTDOWN_DAY)
    return ['TANDEM_SUNSET_SHUTDOWN_DAY', 'is needed with TANDEM_SUNSET_LAST_DAY'];
  if (e.TANDEM_SUNSET_SHUTDOWN_DAY < e.TANDEM_SUNSET_LAST_DAY)
    return ['TANDEM_SUNSET_SHUTDOWN_DAY', 'must not be before TANDEM_SUNSET_LAST_DAY'];
  return {
    last_day: e.TANDEM_SUNSET_LAST_DAY,
    shutdown_day: e.TANDEM_SUNSET_SHUTDOWN_DAY,
    credits_buyable: e.TANDEM_SUNSET_BUY_CREDITS === 'on',
    refund_note: e.TANDEM_SUNSET_REFUND_NOTE,
  };
}
