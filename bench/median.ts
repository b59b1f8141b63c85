/** The middle value (the upper one of an even count): the figures' summary of repeated readings. */
export function median(values: readonly number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
}
