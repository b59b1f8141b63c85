export const TOOLTIP_MAX_CHARS = 1000;

/** Tooltips stop at 1000 characters, with an ellipsis (platform §5). */
export function truncateTooltip(text: string, max = TOOLTIP_MAX_CHARS): string {
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, max).join('')}…`;
}
