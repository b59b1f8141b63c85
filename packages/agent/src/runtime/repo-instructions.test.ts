import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemPrompt } from './prompt.js';
import { MAX_INSTRUCTIONS_BYTES, readRepoInstructions } from './repo-instructions.js';

describe('repository instructions (.tandem/README.md)', () => {
  let root: string;
  let workspace: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'instructions-'));
    workspace = join(root, 'workspace');
    mkdirSync(join(workspace, '.tandem'), { recursive: true });
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('reads the file and puts it in the system prompt', async () => {
    writeFileSync(join(workspace, '.tandem/README.md'), '# Notes\nRun `npm test` first.\n');
    const text = await readRepoInstructions(workspace);
    expect(text).toBe('# Notes\nRun `npm test` first.');
    const prompt = systemPrompt({
      repo: { fullName: 'acme/webapp' } as Parameters<typeof systemPrompt>[0]['repo'],
      branch: 'tandem-1',
      baseBranch: 'main',
      instructions: text,
    });
    expect(prompt).toContain(
      '<repository-instructions>\n# Notes\nRun `npm test` first.\n</repository-instructions>',
    );
  });

  it('reads nothing when the file is missing, empty or a directory', async () => {
    expect(await readRepoInstructions(workspace)).toBeNull();
    writeFileSync(join(workspace, '.tandem/README.md'), '  \n');
    expect(await readRepoInstructions(workspace)).toBeNull();
    rmSync(join(workspace, '.tandem/README.md'));
    mkdirSync(join(workspace, '.tandem/README.md'));
    expect(await readRepoInstructions(workspace)).toBeNull();
  });

  it('never follows a link out of the workspace', async () => {
    const secret = join(root, 'host-secret.txt');
    writeFileSync(secret, 'HOST SECRET');
    symlinkSync(secret, join(workspace, '.tandem/README.md'));
    expect(await readRepoInstructions(workspace)).toBeNull();
    rmSync(join(workspace, '.tandem'), { recursive: true });
    // A linked directory on the way is refused too.
    mkdirSync(join(root, 'outside'));
    writeFileSync(join(root, 'outside/README.md'), 'HOST SECRET');
    symlinkSync(join(root, 'outside'), join(workspace, '.tandem'));
    expect(await readRepoInstructions(workspace)).toBeNull();
  });

  it('points to an oversized file instead of reading it', async () => {
    writeFileSync(join(workspace, '.tandem/README.md'), 'x'.repeat(MAX_INSTRUCTIONS_BYTES + 1));
    expect(await readRepoInstructions(workspace)).toMatch(/larger than 16 KB; read it with view_files/);
  });
});
