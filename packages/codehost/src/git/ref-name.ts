/** An unpaired UTF-16 surrogate: Node would write it to the filesystem as U+FFFD, naming another file. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * `git check-ref-format --branch` in TypeScript, the same rules as `isValidBranchName` of
 * packages/agent/src/sandbox/branch-name.ts (kept apart: the agent package depends on much that
 * the code host must not load). The code host uses it to decide when a branch name may be looked
 * up by reading files under refs/heads/: a name passing it has no empty, `.` or `..` component,
 * no leading `/`, no backslash and no control character, so it can only name a path below
 * refs/heads/. Where it disagrees with git it only refuses more (option-like names, `@`, lone
 * surrogates), and a refused name is simply resolved by git as before.
 */
export function isValidBranchName(name: string): boolean {
  if (name === '' || name === '@' || name === 'HEAD' || name.startsWith('-')) return false;
  if (name.startsWith('/') || name.endsWith('/') || name.endsWith('.')) return false;
  if (name.includes('..') || name.includes('@{') || name.includes('//')) return false;
  // Control characters, space, and the characters revision syntax and globs give a meaning to.
  // eslint-disable-next-line no-control-regex
  if (/[\x00-\x20\x7f~^:?*[\\]/.test(name)) return false;
  if (LONE_SURROGATE.test(name)) return false;
  return name.split('/').every((part) => !part.startsWith('.') && !part.endsWith('.lock'));
}
