import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { agents, type Db } from '@tandem/db';
import { eq } from 'drizzle-orm';
import { readInside, WorkspacePathError } from '../sandbox/safe-fs.js';
import { actionItem, appendItem } from './items.js';
import { startRepoScript } from './tools/shell.js';
import type { ToolContext } from './tools/types.js';
import type { WarmSandbox } from './warm-sandbox.js';

/** Where the scripts started with every fresh sandbox live, and how many of them start. */
export const AUTO_SCRIPTS_DIR = '.tandem/run/auto';
const MAX_AUTO_SCRIPTS = 10;

/**
 * `.tandem/run/auto/*.sh` (dev servers, watchers), started in the background in name order when
 * the sandbox is set up, each with its shell item and log like a script started from the menu.
 * The folder is listed inside the workspace only (no symlinked folder is followed).
 */
export async function startAutoScripts(
  sandbox: WarmSandbox,
  context: () => Promise<ToolContext>,
): Promise<void> {
  let entry;
  try {
    entry = await readInside(sandbox.workspace.dir, AUTO_SCRIPTS_DIR, { maxBytes: 0 });
  } catch (error) {
    if (error instanceof WorkspacePathError) return;
    throw error;
  }
  if (entry.kind !== 'directory') return;
  const scripts = entry.entries
    .filter((e) => !e.directory && e.name.endsWith('.sh'))
    .map((e) => e.name)
    .sort()
    .slice(0, MAX_AUTO_SCRIPTS);
  for (const name of scripts) await startRepoScript(await context(), `${AUTO_SCRIPTS_DIR}/${name}`, false);
}

/** Scripts the user started from the Run Scripts menu: taken once, started in the background. */
export async function startRequestedScripts(
  db: Db,
  agentId: string,
  sandbox: WarmSandbox,
  context: () => Promise<ToolContext>,
): Promise<void> {
  // Taken under the row lock: a request arriving meanwhile waits and lands in the next run.
  const taken = await db.transaction(async (tx) => {
    const [row] = await tx
      .select({ scripts: agents.pendingScripts })
      .from(agents)
      .where(eq(agents.id, agentId))
      .for('update');
    if (row?.scripts.length)
      await tx.update(agents).set({ pendingScripts: [] }).where(eq(agents.id, agentId));
    return row;
  });
  if (!taken?.scripts.length) return;
  for (const { script_path, restart } of taken.scripts) {
    const exists = await stat(join(sandbox.workspace.dir, script_path)).then(
      (s) => s.isFile(),
      () => false,
    );
    if (!exists) {
      await appendItem(
        db,
        agentId,
        actionItem('ErrorEvent', { exception: `Script not found: ${script_path}` }),
      );
      continue;
    }
    await startRepoScript(await context(), script_path, restart);
  }
}
