import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * GitHub refuses a push by a GitHub App that creates or changes a file under .github/workflows/
 * unless the App has the `workflows` permission (Tandem's App does not ask for it: docs/decisions.md).
 * The code host does the same with a pre-receive hook, which runs once the pushed objects are
 * received and before any ref moves: for a moved branch it compares the old and new trees, for a
 * new one the commits no existing ref reaches. People's pushes (OAuth, tokens, sessions) pass.
 * The message is GitHub's, which the agent's commit_and_push recognises.
 */
const PRE_RECEIVE = `#!/bin/sh
# Written by the Tandem code host at start-up (src/git/workflow-guard.ts): edits are overwritten.
[ "$TANDEM_PUSH_BY_APP" = 1 ] || exit 0
zero=0000000000000000000000000000000000000000
refused=
while read -r old new ref; do
  [ "$new" = "$zero" ] && continue
  if [ "$old" = "$zero" ]; then
    changed=$(git rev-list "$new" --not --all | while read -r commit; do
      git diff-tree --no-commit-id --name-only -r --root "$commit" -- .github/workflows
    done | head -n 1)
  else
    changed=$(git diff --name-only "$old" "$new" -- .github/workflows | head -n 1)
  fi
  if [ -n "$changed" ]; then
    echo "refusing to allow a GitHub App to create or update workflow \\\`$changed\\\` without \\\`workflows\\\` permission" >&2
    refused=1
  fi
done
[ -z "$refused" ]
`;

/** Writes the hooks directory every receive-pack uses; returns its path. */
export function installPushHooks(dataDir: string): string {
  const dir = join(dataDir, 'hooks');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'pre-receive'), PRE_RECEIVE, { mode: 0o755 });
  return dir;
}

/**
 * The environment that makes `git http-backend`'s receive-pack run those hooks (as command-line
 * configuration, so no repository's own config is touched) and tells them who pushes.
 */
export function pushHookEnv(hooksDir: string, byApp: boolean): Record<string, string> {
  return {
    GIT_CONFIG_COUNT: '1',
    GIT_CONFIG_KEY_0: 'core.hooksPath',
    GIT_CONFIG_VALUE_0: hooksDir,
    TANDEM_PUSH_BY_APP: byApp ? '1' : '0',
  };
}
