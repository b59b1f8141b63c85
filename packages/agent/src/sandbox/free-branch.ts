/** How many of `name`, `name-2`, `name-3`… are tried before giving up. */
export const MAX_BRANCH_SUFFIX = 100;

/**
 * The first of `name`, `name-2`, `name-3`… that `taken` says the code host does not have, or
 * undefined when all are taken. One rule for the workspace (which asks its fetched mirror) and for
 * the first prompt (which asks the code host's API before the clone exists): both must agree.
 */
export async function firstFreeBranch(
  name: string,
  taken: (candidate: string) => Promise<boolean>,
): Promise<string | undefined> {
  for (let n = 1; n <= MAX_BRANCH_SUFFIX; n++) {
    const candidate = n === 1 ? name : `${name}-${n}`;
    if (!(await taken(candidate))) return candidate;
  }
  return undefined;
}
