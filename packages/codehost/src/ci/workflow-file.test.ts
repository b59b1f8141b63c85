import { describe, expect, it } from 'vitest';
import { jobOrder, parseWorkflow, triggeredBy, WorkflowError } from './workflow-file.js';

describe('workflow files', () => {
  it('reads names, env at every level, working directories and needs', () => {
    const wf = parseWorkflow(
      '.github/workflows/ci.yml',
      `name: CI
on:
  push:
    branches: [main, 'release/**']
  pull_request:
env: { A: 1 }
defaults:
  run:
    working-directory: app
jobs:
  test:
    needs: build
    env: { B: true }
    steps:
      - run: npm test
        env: { C: x }
  build:
    name: Build it
    steps:
      - uses: actions/checkout@v4
      - name: Compile
        run: make
        working-directory: lib
`,
    );
    expect(wf).toMatchObject({ name: 'CI', env: { A: '1' }, workingDirectory: 'app' });
    expect(wf.jobs[0]).toMatchObject({ id: 'test', name: 'test', needs: ['build'], env: { B: 'true' } });
    expect(wf.jobs[0]!.steps[0]).toMatchObject({ name: 'Run npm test', run: 'npm test', env: { C: 'x' } });
    expect(wf.jobs[1]!.steps.map((s) => s.name)).toEqual(['Run actions/checkout@v4', 'Compile']);
    expect(wf.jobs[1]!.steps[1]!.workingDirectory).toBe('lib');
    expect(jobOrder(wf.jobs).map((j) => j.id)).toEqual(['build', 'test']);
  });

  it('matches triggers and branch filters as GitHub does', () => {
    const wf = parseWorkflow(
      'w.yml',
      `on:
  push:
    branches: [main, 'release/**', 'feat/*']
  pull_request:
    branches-ignore: [wip]
jobs: { a: { steps: [{ run: 'true' }] } }
`,
    );
    expect(triggeredBy(wf, 'push', 'main')).toBe(true);
    expect(triggeredBy(wf, 'push', 'release/1/2')).toBe(true);
    expect(triggeredBy(wf, 'push', 'feat/x')).toBe(true);
    expect(triggeredBy(wf, 'push', 'feat/x/y')).toBe(false);
    expect(triggeredBy(wf, 'push', 'other')).toBe(false);
    expect(triggeredBy(wf, 'pull_request', 'main')).toBe(true);
    expect(triggeredBy(wf, 'pull_request', 'wip')).toBe(false);
    const list = parseWorkflow('w.yml', 'on: [pull_request]\njobs: { a: { steps: [{ run: x }] } }\n');
    expect(triggeredBy(list, 'push', 'main')).toBe(false);
    expect(triggeredBy(list, 'pull_request', 'main')).toBe(true);
    const word = parseWorkflow('w.yml', 'on: push\njobs: { a: { steps: [{ run: x }] } }\n');
    expect(triggeredBy(word, 'push', 'anything')).toBe(true);
  });

  it('refuses broken files with a reason', () => {
    expect(() => parseWorkflow('w.yml', 'on: push\njobs: [')).toThrow(WorkflowError);
    expect(() => parseWorkflow('w.yml', 'on: push\n')).toThrow('A workflow needs jobs');
    expect(() => parseWorkflow('w.yml', 'on: push\njobs: { a: { steps: [{ name: x }] } }')).toThrow(
      'jobs.a.steps[0] needs run or uses',
    );
    expect(() => parseWorkflow('w.yml', 'on: push\njobs: { a: { needs: b, steps: [{ run: x }] } }')).toThrow(
      'needs unknown job b',
    );
    const cycle = parseWorkflow(
      'w.yml',
      'on: push\njobs: { a: { needs: b, steps: [{ run: x }] }, b: { needs: a, steps: [{ run: x }] } }',
    );
    expect(() => jobOrder(cycle.jobs)).toThrow('cycle');
    // A billion laughs stops at the alias limit instead of eating memory.
    const laughs = `a: &a [x, x, x, x, x, x, x, x, x, x]\n${Array.from(
      { length: 12 },
      (_, i) =>
        `l${i}: &l${i} [${Array(10)
          .fill(i ? `*l${i - 1}` : '*a')
          .join(', ')}]`,
    ).join('\n')}\non: push\njobs: {}\n`;
    expect(() => parseWorkflow('w.yml', laughs)).toThrow(WorkflowError);
  });

  it('gives up on wildcard-heavy patterns instead of backtracking for ages', () => {
    const wf = parseWorkflow(
      'w.yml',
      `on: { push: { branches: ['${'*a'.repeat(20)}b'] } }\njobs: { a: { steps: [{ run: x }] } }\n`,
    );
    const started = Date.now();
    expect(triggeredBy(wf, 'push', 'a'.repeat(200))).toBe(false);
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
