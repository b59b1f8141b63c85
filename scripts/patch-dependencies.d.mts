export interface DependencyPatch {
  name: string;
  dir: string;
  from: string;
  to: string;
}
export const PATCHES: DependencyPatch[];
export function patchDependencies(
  root: string,
): { name: string; outcome: 'applied' | 'already applied' | 'missing' | 'not found' }[];
export function applyDependencyPatches(root: string): void;
