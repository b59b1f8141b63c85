import { isAbsolute, relative, resolve } from 'node:path';
import { ToolInputError } from './types.js';

/** A path the model gave, resolved inside the workspace; anything escaping it is refused. */
export function workspacePath(root: string, path: string): { absolute: string; relative: string } {
  const absolute = resolve(root, path);
  const rel = relative(root, absolute);
  if (rel.startsWith('..') || isAbsolute(rel)) throw new ToolInputError(`${path} is outside the repository`);
  if (rel === '.git' || rel.startsWith('.git/')) throw new ToolInputError('The .git directory is off limits');
  return { absolute, relative: rel || '.' };
}
