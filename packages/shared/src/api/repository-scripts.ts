import { z } from 'zod';

/** Platform §8's texts for the repository scripts section. */
export const SCRIPTS_MESSAGES = {
  fetch: "There was an error fetching this repository's scripts. Please reload or try again later.",
  generate: 'There was an error generating the scripts. Please try again later.',
  generating: 'Generating scripts now',
  adminsOnly: 'Only product admins can generate scripts',
} as const;

/** GET /api/repositories/{owner}/{repo}/scripts (platform §3 "Repository scripts response"). */
export const repositoryScriptsSchema = z.object({
  /** Path → contents, for the `.tandem/` scripts on the default branch. */
  scripts: z.record(z.string(), z.string()),
  open_pr_links: z.array(z.object({ link: z.string(), number: z.number().int() })),
  /** Script-generation agents still working. */
  agent_ids: z.array(z.string()),
});
export type RepositoryScripts = z.infer<typeof repositoryScriptsSchema>;

/** POST /api/repositories/{owner}/{repo}/generate-scripts */
export const generateScriptsResponseSchema = z.object({ agent_id: z.string() });

/** The task a script-generation agent is given (its first message). */
export const GENERATE_SCRIPTS_TASK = [
  'Write the Tandem scripts for this repository, following the docs page "Scripts" (/docs/behavior/scripts):',
  '- `.tandem/setup.sh`: installs what the project needs in a fresh checkout (dependencies, tools), non-interactively.',
  "- `.tandem/format.sh`: formats the files changed in the working tree with the project's own formatter, if it has one.",
  '- `.tandem/run/*.sh`: one script per common command (tests, lint, dev server).',
  '- `.tandem/preview/*.sh`: starts the app for a preview on a port, if it is a web app.',
  'Read the README and the build files first, run each script to check it works, keep them short and idempotent,',
  'then commit, push and open a pull request titled "Add Tandem scripts".',
].join('\n');
