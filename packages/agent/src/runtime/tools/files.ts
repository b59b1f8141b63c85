import { diffLines } from 'diff';
import { z } from 'zod';
import { workspacePath } from './paths.js';
import { readInside, readTextIfExists, WorkspacePathError, writeInside } from '../../sandbox/safe-fs.js';
import { defineTool, ToolInputError } from './types.js';

const MAX_VIEW_BYTES = 256 * 1024;
const MAX_VIEW_LINES = 2000;
/** edit_file rewrites whole files in memory: far above any source file, far below the server's memory. */
const MAX_EDIT_BYTES = 8 * 1024 * 1024;

async function readText(root: string, relative: string, path: string): Promise<string> {
  const entry = await readInside(root, relative, { maxBytes: MAX_VIEW_BYTES, shown: path });
  if (entry.kind === 'directory') {
    return entry.entries
      .filter((e) => e.name !== '.git')
      .map((e) => (e.directory ? `${e.name}/` : e.name))
      .sort()
      .join('\n');
  }
  if (entry.bytes.includes(0)) throw new ToolInputError(`${path} is a binary file`);
  return entry.bytes.toString('utf8');
}

export const viewFiles = defineTool({
  name: 'view_files',
  description:
    'Read files (or list directories) of the repository. Paths are relative to the repository root. Optionally a 1-based inclusive line range per file.',
  input: z.object({
    files: z
      .array(
        z.object({
          path: z.string().min(1),
          start_line: z.number().int().positive().optional(),
          end_line: z.number().int().positive().optional(),
        }),
      )
      .min(1)
      .max(20),
  }),
  async execute(input, ctx) {
    const shown: Record<string, [string, [number, number]]> = {};
    const out: string[] = [];
    for (const file of input.files) {
      const { relative } = workspacePath(ctx.workspace.dir, file.path);
      let text: string;
      try {
        text = ctx.scrub(await readText(ctx.workspace.dir, relative, file.path));
      } catch (error) {
        if (!(error instanceof ToolInputError || error instanceof WorkspacePathError)) throw error;
        out.push(`${file.path}: ${error.message}`);
        continue;
      }
      const lines = text.split('\n');
      const start = Math.min(file.start_line ?? 1, Math.max(lines.length, 1));
      const end = Math.min(
        file.end_line ?? start + MAX_VIEW_LINES - 1,
        lines.length,
        start + MAX_VIEW_LINES - 1,
      );
      const slice = lines.slice(start - 1, end);
      shown[relative] = [slice.join('\n'), [start, end]];
      const numbered = slice.map((line, i) => `${String(start + i).padStart(5)}  ${line}`).join('\n');
      const more = end < lines.length ? `\n… ${lines.length - end} more lines` : '';
      out.push(`=== ${relative} (lines ${start}-${end} of ${lines.length})\n${numbered}${more}`);
    }
    if (Object.keys(shown).length) await ctx.emit({ itemType: 'view', data: { files: shown } });
    return { output: out.join('\n\n') };
  },
});

export function countChanges(before: string, after: string): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const change of diffLines(before, after)) {
    if (change.added) added += change.count ?? 0;
    if (change.removed) removed += change.count ?? 0;
  }
  return { added, removed };
}

export const editFile = defineTool({
  name: 'edit_file',
  description:
    'Edit a file: replace old_string (which must occur exactly once, include enough context) with new_string. With an empty old_string the file is created or overwritten with new_string.',
  input: z.object({
    path: z.string().min(1),
    old_string: z.string(),
    new_string: z.string(),
  }),
  async execute(input, ctx) {
    const { relative } = workspacePath(ctx.workspace.dir, input.path);
    const existing = await readTextIfExists(ctx.workspace.dir, relative, MAX_EDIT_BYTES);
    let next: string;
    if (input.old_string === '') {
      next = input.new_string;
    } else {
      if (existing === null) throw new ToolInputError(`${input.path} does not exist`);
      const first = existing.indexOf(input.old_string);
      if (first < 0) throw new ToolInputError(`old_string was not found in ${input.path}`);
      if (existing.indexOf(input.old_string, first + 1) >= 0)
        throw new ToolInputError(`old_string occurs more than once in ${input.path}; include more context`);
      next = existing.slice(0, first) + input.new_string + existing.slice(first + input.old_string.length);
    }
    await writeInside(ctx.workspace.dir, relative, next);
    const before = existing ?? '';
    const { added, removed } = countChanges(before, next);
    await ctx.emit({
      itemType: 'edit',
      data: {
        old_files: { [relative]: ctx.scrub(before) },
        new_files: { [relative]: ctx.scrub(next) },
        lines_added: added,
        lines_removed: removed,
        commit_sha: null,
      },
    });
    return { output: `Edited ${relative}: +${added} -${removed} lines` };
  },
});
