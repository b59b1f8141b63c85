import { parse } from 'yaml';

/**
 * The subset of GitHub Actions' workflow syntax the local CI honours (docs/decisions.md, "Local
 * CI"): triggers `push` and `pull_request` with branch filters, `env` at every level,
 * `defaults.run.working-directory`, `jobs.<id>.name`, `needs`, and steps with `run` or `uses`.
 * Expressions (`${{ }}`), `if`, matrices and services are not evaluated.
 */
export interface WorkflowStep {
  name: string;
  run?: string;
  uses?: string;
  env: Record<string, string>;
  workingDirectory?: string;
}

export interface WorkflowJob {
  id: string;
  name: string;
  needs: string[];
  env: Record<string, string>;
  workingDirectory?: string;
  steps: WorkflowStep[];
}

export interface BranchFilter {
  branches?: string[];
  branchesIgnore?: string[];
}

export interface Workflow {
  path: string;
  name: string;
  on: { push?: BranchFilter; pull_request?: BranchFilter };
  env: Record<string, string>;
  workingDirectory?: string;
  jobs: WorkflowJob[];
}

export type CiEvent = 'push' | 'pull_request';

/** A workflow file that could not be read: GitHub shows such runs as failed at start-up. */
export class WorkflowError extends Error {}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function envOf(value: unknown, where: string): Record<string, string> {
  if (value === undefined || value === null) return {};
  if (!isObj(value)) throw new WorkflowError(`${where}: env must be a mapping`);
  const env: Record<string, string> = {};
  for (const [key, v] of Object.entries(value)) {
    if (typeof v === 'object' && v !== null) throw new WorkflowError(`${where}: env.${key} must be a value`);
    env[key] = String(v ?? '');
  }
  return env;
}

function stringList(value: unknown, where: string): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  const list = Array.isArray(value) ? value : [value];
  if (!list.every((v) => typeof v === 'string')) throw new WorkflowError(`${where} must be strings`);
  return list as string[];
}

function workingDirectoryOf(node: unknown): string | undefined {
  if (!isObj(node) || !isObj(node.defaults) || !isObj(node.defaults.run)) return undefined;
  const dir = node.defaults.run['working-directory'];
  return typeof dir === 'string' ? dir : undefined;
}

function triggersOf(on: unknown): Workflow['on'] {
  const result: Workflow['on'] = {};
  const names: unknown[] =
    typeof on === 'string' ? [on] : Array.isArray(on) ? on : isObj(on) ? Object.keys(on) : [];
  for (const name of names) {
    if (name !== 'push' && name !== 'pull_request') continue;
    const config = isObj(on) ? on[name] : null;
    const filter: BranchFilter = {};
    if (isObj(config)) {
      const branches = stringList(config.branches, `on.${name}.branches`);
      const ignore = stringList(config['branches-ignore'], `on.${name}.branches-ignore`);
      if (branches) filter.branches = branches;
      if (ignore) filter.branchesIgnore = ignore;
    }
    result[name] = filter;
  }
  return result;
}

function stepOf(node: unknown, index: number, jobId: string): WorkflowStep {
  const where = `jobs.${jobId}.steps[${index}]`;
  if (!isObj(node)) throw new WorkflowError(`${where} must be a mapping`);
  const run = typeof node.run === 'string' ? node.run : undefined;
  const uses = typeof node.uses === 'string' ? node.uses : undefined;
  if (!run && !uses) throw new WorkflowError(`${where} needs run or uses`);
  const fallback = run ? `Run ${run.split('\n')[0]!.trim()}` : `Run ${uses}`;
  const step: WorkflowStep = {
    name: typeof node.name === 'string' && node.name.trim() ? node.name : fallback,
    env: envOf(node.env, where),
  };
  if (run) step.run = run;
  if (uses) step.uses = uses;
  if (typeof node['working-directory'] === 'string') step.workingDirectory = node['working-directory'];
  return step;
}

/** Parses one workflow file; throws WorkflowError with a reason a person can act on. */
export function parseWorkflow(path: string, text: string): Workflow {
  let doc: unknown;
  try {
    // YAML 1.2 (the yaml package's default): `on` is a key, not the boolean YAML 1.1 made it.
    doc = parse(text, { maxAliasCount: 100 });
  } catch (error) {
    throw new WorkflowError(`Invalid YAML: ${(error as Error).message.split('\n')[0]}`);
  }
  if (!isObj(doc)) throw new WorkflowError('A workflow must be a mapping');
  if (!isObj(doc.jobs)) throw new WorkflowError('A workflow needs jobs');
  const jobs = Object.entries(doc.jobs).map(([id, node]): WorkflowJob => {
    if (!isObj(node)) throw new WorkflowError(`jobs.${id} must be a mapping`);
    if (!Array.isArray(node.steps)) throw new WorkflowError(`jobs.${id} needs steps`);
    const job: WorkflowJob = {
      id,
      name: typeof node.name === 'string' && node.name.trim() ? node.name : id,
      needs: stringList(node.needs, `jobs.${id}.needs`) ?? [],
      env: envOf(node.env, `jobs.${id}`),
      steps: node.steps.map((s, i) => stepOf(s, i, id)),
    };
    const dir = workingDirectoryOf(node);
    if (dir) job.workingDirectory = dir;
    return job;
  });
  for (const job of jobs)
    for (const need of job.needs)
      if (!jobs.some((j) => j.id === need))
        throw new WorkflowError(`jobs.${job.id} needs unknown job ${need}`);
  const workflow: Workflow = {
    path,
    name: typeof doc.name === 'string' && doc.name.trim() ? doc.name : path,
    on: triggersOf(doc.on),
    env: envOf(doc.env, 'env'),
    jobs,
  };
  const dir = workingDirectoryOf(doc);
  if (dir) workflow.workingDirectory = dir;
  return workflow;
}

/** GitHub's filter patterns: `*` within a path segment, `**` across them, `?` one character. */
function globMatches(pattern: string, value: string): boolean {
  // Patterns come from hostile files: many wildcards would make the regex backtrack for ages.
  if (pattern.length > 200 || (pattern.match(/[*?]/g)?.length ?? 0) > 8) return false;
  let source = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '*' && pattern[i + 1] === '*') {
      source += '.*';
      i++;
    } else if (c === '*') source += '[^/]*';
    else if (c === '?') source += '.';
    else source += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`).test(value);
}

/**
 * Whether the workflow runs for this event. `branch` is the pushed branch for `push` and the pull
 * request's base branch for `pull_request`, as GitHub filters them.
 */
export function triggeredBy(workflow: Workflow, event: CiEvent, branch: string): boolean {
  const filter = workflow.on[event];
  if (!filter) return false;
  if (filter.branches) return filter.branches.some((p) => globMatches(p, branch));
  if (filter.branchesIgnore) return !filter.branchesIgnore.some((p) => globMatches(p, branch));
  return true;
}

/** `needs` first: jobs in file order, each after the jobs it needs (cycles are refused). */
export function jobOrder(jobs: WorkflowJob[]): WorkflowJob[] {
  const done = new Set<string>();
  const order: WorkflowJob[] = [];
  while (order.length < jobs.length) {
    const next = jobs.find((j) => !done.has(j.id) && j.needs.every((n) => done.has(n)));
    if (!next) throw new WorkflowError('The jobs need each other in a cycle');
    done.add(next.id);
    order.push(next);
  }
  return order;
}
