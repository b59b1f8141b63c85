import type { ChangedFile } from '../git/repo-reads.js';
import { esc } from './html.js';

/** Patches beyond this many characters are summarised instead of rendered. */
const MAX_PATCH_CHARS = 200_000;

/** One table per changed file: old and new line numbers, and each line marked + / − / context. */
export function renderDiff(files: ChangedFile[], idPrefix = 'diff'): string {
  if (!files.length) return '<p class="muted">No changes.</p>';
  return files.map((file, index) => renderFile(file, `${idPrefix}-${index}`)).join('');
}

function renderFile(file: ChangedFile, id: string): string {
  const name = file.previousFilename ? `${file.previousFilename} → ${file.filename}` : file.filename;
  const heading = `<h3 id="${esc(id)}">${esc(name)} <span class="add">+${file.additions}</span> <span class="del">−${file.deletions}</span> <span class="muted">${esc(file.status)}</span></h3>`;
  let body: string;
  if (!file.patch) body = '<p class="muted">No textual changes (binary file, mode change or rename).</p>';
  else if (file.patch.length > MAX_PATCH_CHARS) body = '<p class="muted">Large diff not rendered.</p>';
  else body = `<div class="scroll">${patchTable(file.patch)}</div>`;
  return `<section aria-labelledby="${esc(id)}">${heading}${body}</section>`;
}

function patchTable(patch: string): string {
  let oldLine = 0;
  let newLine = 0;
  const rows: string[] = [];
  for (const line of patch.split('\n')) {
    const hunk = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(line);
    if (hunk) {
      oldLine = Number(hunk[1]);
      newLine = Number(hunk[2]);
      rows.push(`<tr class="hunk"><td class="num"></td><td class="num"></td><td>${esc(line)}</td></tr>`);
    } else if (line.startsWith('+')) {
      rows.push(
        `<tr class="add"><td class="num"></td><td class="num">${newLine++}</td><td>${esc(line)}</td></tr>`,
      );
    } else if (line.startsWith('-')) {
      rows.push(
        `<tr class="del"><td class="num">${oldLine++}</td><td class="num"></td><td>${esc(line)}</td></tr>`,
      );
    } else if (line.startsWith('\\')) {
      rows.push(`<tr><td class="num"></td><td class="num"></td><td class="muted">${esc(line)}</td></tr>`);
    } else {
      rows.push(
        `<tr><td class="num">${oldLine++}</td><td class="num">${newLine++}</td><td>${esc(line)}</td></tr>`,
      );
    }
  }
  // The +/− stays in the text, so the change never depends on colour alone.
  return `<table class="code"><thead class="sr-only"><tr><th scope="col">Old line</th><th scope="col">New line</th><th scope="col">Change</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}
