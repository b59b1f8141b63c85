import { textProblem } from '../api/text.js';

/**
 * `git check-ref-format --branch` in TypeScript (git-check-ref-format(1)), plus a refusal of names
 * that look like options and of '@' (HEAD in revision syntax). Asking git meant a process per name,
 * and a process costs the server a fork of its whole memory (tens of milliseconds at a few hundred
 * MB: the many-agents figure of issue 15). Used where a name reaches git (preparing a workspace)
 * and where the local code host reads a branch from `refs/heads/<name>` (a name passing this has
 * no empty, `.` or `..` component, no leading `/`, no backslash and no control character, so it
 * can only name a path below refs/heads/). Where this disagrees with git it only refuses more
 * (those, and lone surrogates, which git never receives intact); the tests compare both on the
 * tricky cases.
 */
export function isValidBranchName(name: string): boolean {
  if (name === '' || name === '@' || name === 'HEAD' || name.startsWith('-')) return false;
  if (name.startsWith('/') || name.endsWith('/') || name.endsWith('.')) return false;
  if (name.includes('..') || name.includes('@{') || name.includes('//')) return false;
  // Control characters, space, and the characters revision syntax and globs give a meaning to.
  // eslint-disable-next-line no-control-regex
  if (/[\x00-\x20\x7f~^:?*[\\]/.test(name)) return false;
  if (textProblem(name)) return false;
  return name.split('/').every((part) => !part.startsWith('.') && !part.endsWith('.lock'));
}
