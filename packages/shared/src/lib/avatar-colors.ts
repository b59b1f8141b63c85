/** The 15 placeholder colours for avatars without a picture (platform §9). */
export const AVATAR_PALETTE = [
  '#e53935',
  '#d81b60',
  '#8e24aa',
  '#5e35b1',
  '#3949ab',
  '#1e88e5',
  '#039be5',
  '#00acc1',
  '#00897b',
  '#43a047',
  '#7cb342',
  '#c0ca33',
  '#fb8c00',
  '#f4511e',
  '#6d4c41',
] as const;

/** The same name always gets the same colour. */
export function avatarColor(name: string): string {
  let hash = 0;
  for (const char of name) hash = (hash * 31 + char.codePointAt(0)!) >>> 0;
  return AVATAR_PALETTE[hash % AVATAR_PALETTE.length]!;
}
