import { z } from 'zod';

/**
 * Sunset mode (DESIGN.md §9): the spec's shutdown texts, shown only when an operator winds a
 * deployment down with the `TANDEM_SUNSET_*` settings. Days are `YYYY-MM-DD`, read as UTC days.
 */
export const sunsetSchema = z.object({
  /** The last day agents can be created, messaged and spend credits (inclusive). */
  last_day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  /** The day the site goes down. */
  shutdown_day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  /** Whether credits can still be bought until the last day. */
  credits_buyable: z.boolean(),
  /** What happens to unused credits, e.g. 'Unused credits will be refunded.' */
  refund_note: z.string(),
});
export type Sunset = z.infer<typeof sunsetSchema>;

export const DEFAULT_SUNSET_REFUND_NOTE = 'Unused credits will be refunded.';
export const SUNSET_NO_NEW_AGENTS = 'Tandem is shutting down: new agents can no longer be made.';
export const SUNSET_NO_MESSAGES = 'Tandem is shutting down: agents can no longer be messaged.';
export const SUNSET_NO_PURCHASES = 'Tandem is shutting down: credits can no longer be bought.';

/** Whether credits can be bought now: always outside sunset mode; in it, only while the operator
 * allows it and until the last day has ended. */
export function sunsetAllowsBuying(sunset: Sunset | null, now: Date = new Date()): boolean {
  return sunset === null || (sunset.credits_buyable && !sunsetClosed(sunset, now));
}

/** The spec's short form of a day: 10/21. */
export function sunsetDay(day: string): string {
  const [, month, date] = day.split('-');
  return `${Number(month)}/${Number(date)}`;
}

/** True once the last day has ended (UTC): no new agents, no messages. */
export function sunsetClosed(sunset: Sunset | null, now: Date = new Date()): boolean {
  return sunset !== null && now.getTime() >= Date.parse(`${sunset.last_day}T00:00:00Z`) + 86_400_000;
}

/** The banner for signed-in users (platform §1 Shutdown). */
export function sunsetBanner(sunset: Sunset, now: Date = new Date()): string {
  const credits = sunset.credits_buyable ? '' : ' Credits can no longer be bought.';
  const agents = sunsetClosed(sunset, now)
    ? ' New agents can no longer be made.'
    : ` New agents can be made until ${sunsetDay(sunset.last_day)}.`;
  return (
    `Tandem is shutting down.${credits}${agents} ${sunset.refund_note} ` +
    `The site goes down on ${sunsetDay(sunset.shutdown_day)}.`
  );
}

/** The out-of-credits notice's shutdown version (platform §1, workspace §1). */
export function sunsetOutOfCredits(sunset: Sunset): string {
  const until = `xisting credits can be used until ${sunsetDay(sunset.last_day)}.`;
  return sunset.credits_buyable
    ? `Your installation is out of credits. Tandem is shutting down. E${until}`
    : `Your installation is out of credits. Tandem is shutting down: no more credits can be bought, and e${until}`;
}

/** The notice beside the disabled message input once the last day has passed (workspace §1). */
export function sunsetInputNotice(sunset: Sunset): string {
  return `Tandem is shutting down: agents can no longer be messaged. ${sunset.refund_note}`;
}
