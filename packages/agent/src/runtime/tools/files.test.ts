import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { link, mkdir, mkdtemp, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { editFile, viewFiles } from './files.js';
import type { ToolContext } from './types.js';

let base: string;
let ws: string;
let outside: string;

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'tandem-files-'));
  ws = join(base, 'workspace');
  outside = join(base, 'outside');
  await mkdir(ws);
  await mkdir(outside);
  await writeFile(join(outside, 'secret.key'), 'host secret\n');
});
afterEach(() => rm(base, { recursive: true, force: true }));

function context(): ToolContext {
  const ctx = {
    workspace: { dir: ws },
    scrub: (text: string) => text,
    emit: async () => ({ actionUuid: 'x' }),
  };
  return ctx as unknown as ToolContext;
}

const view = (path: string) => viewFiles.execute({ files: [{ path }] }, context());
const edit = (path: string, next: string, old = '') =>
  editFile.execute({ path, old_string: old, new_string: next }, context());

describe('file tools stay inside the workspace', () => {
  it('reads and edits ordinary files and follows links that stay inside', async () => {
    await edit('src/a.txt', 'one\n');
    await symlink('src/a.txt', join(ws, 'alias.txt'));
    await symlink('src', join(ws, 'srclink'));
    expect((await view('alias.txt')).output).toContain('one');
    await edit('srclink/a.txt', 'two\n', 'one\n');
    expect(await readFile(join(ws, 'src', 'a.txt'), 'utf8')).toBe('two\n');
    expect((await view('.')).output).toContain('src/');
  });

  it('refuses a symbolic link to a host file, for reading and writing', async () => {
    await symlink(join(outside, 'secret.key'), join(ws, 'key'));
    await symlink('/etc/passwd', join(ws, 'passwd'));
    expect((await view('key')).output).toMatch(/key resolves outside the repository/);
    expect((await view('passwd')).output).not.toContain('root:');
    await expect(edit('key', 'owned\n')).rejects.toThrow(/outside the repository/);
    expect(await readFile(join(outside, 'secret.key'), 'utf8')).toBe('host secret\n');
  });

  it('refuses a linked directory that leads out, and creates nothing there', async () => {
    await symlink(outside, join(ws, 'out'));
    await expect(edit('out/new/file.txt', 'x')).rejects.toThrow(/outside the repository/);
    await expect(edit('out/planted.txt', 'x')).rejects.toThrow(/outside the repository/);
    expect((await readdir(outside)).sort()).toEqual(['secret.key']);
    expect((await view('out/secret.key')).output).toMatch(/outside the repository/);
  });

  it('refuses a dangling link whose target would be created outside', async () => {
    await symlink(join(outside, 'created.txt'), join(ws, 'dangling'));
    await symlink('../outside/created2.txt', join(ws, 'dangling2'));
    await expect(edit('dangling', 'x')).rejects.toThrow(/outside the repository/);
    await expect(edit('dangling2', 'x')).rejects.toThrow(/outside the repository/);
    expect(existsSync(join(outside, 'created.txt'))).toBe(false);
    expect(existsSync(join(outside, 'created2.txt'))).toBe(false);
  });

  it('refuses hard links, which share the host file', async () => {
    await link(join(outside, 'secret.key'), join(ws, 'hard'));
    expect((await view('hard')).output).toMatch(/other hard links/);
    await expect(edit('hard', 'owned\n')).rejects.toThrow(/other hard links/);
    expect(await readFile(join(outside, 'secret.key'), 'utf8')).toBe('host secret\n');
  });

  it('refuses paths that climb out and the .git directory', async () => {
    await expect(view('../outside/secret.key')).rejects.toThrow(/outside the repository/);
    await expect(edit('a/../../outside/x', 'x')).rejects.toThrow(/outside the repository/);
    await expect(edit('.git/config', 'x')).rejects.toThrow(/off limits/);
  });

  it('does not hang on a FIFO and refuses it', async () => {
    await new Promise<void>((resolve, reject) => {
      const child = spawn('mkfifo', [join(ws, 'pipe')]);
      child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`mkfifo ${code}`))));
    });
    expect((await view('pipe')).output).toMatch(/not a regular file/);
    await expect(edit('pipe', 'x')).rejects.toThrow(/outside the repository|not a regular file/);
  });

  it('never writes outside while a process swaps a directory for a link to the host', async () => {
    await mkdir(join(ws, 'race'));
    // The agent's own process flips race/ between a directory and a link to the outside folder.
    const flipper = spawn(
      'bash',
      [
        '-c',
        `cd '${ws}' || exit 1; end=$((SECONDS+3)); while [ $SECONDS -lt $end ]; do ` +
          `rm -rf race; mkdir race; rm -rf race; ln -s '${outside}' race; done`,
      ],
      { stdio: 'ignore' },
    );
    const stopped = new Promise((resolve) => flipper.on('exit', resolve));
    const deadline = Date.now() + 2500;
    let tries = 0;
    try {
      while (Date.now() < deadline) {
        tries++;
        await edit(`race/f${tries % 5}.txt`, 'x').catch(() => undefined);
        await view(`race/secret.key`).then((out) => expect(out.output).not.toContain('host secret'));
      }
    } finally {
      flipper.kill('SIGKILL');
      await stopped;
    }
    expect(tries).toBeGreaterThan(10);
    expect((await readdir(outside)).sort()).toEqual(['secret.key']);
  });
});
