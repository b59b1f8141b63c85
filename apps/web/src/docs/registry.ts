export interface DocPage {
  path: string;
  title: string;
  section: 'Getting started' | 'Behavior' | 'Features' | 'Reference';
  /** Markdown source, loaded on demand so each page is its own small chunk. */
  load: () => Promise<string>;
}

const sources = import.meta.glob<string>('./content/**/*.md', { query: '?raw', import: 'default' });

function page(path: string, title: string, section: DocPage['section'], file: string): DocPage {
  const loader = sources[`./content/${file}`];
  if (!loader) throw new Error(`Missing docs page ${file}`);
  return { path, title, section, load: loader };
}

/** The twelve docs routes of workspace §2, in sidebar order. */
export const DOC_PAGES: DocPage[] = [
  page('/docs', 'Introduction', 'Getting started', 'introduction.md'),
  page('/docs/installation', 'Installation', 'Getting started', 'installation.md'),
  page('/docs/pricing', 'Pricing', 'Getting started', 'pricing.md'),
  page('/docs/behavior/triggers', 'Triggers', 'Behavior', 'behavior/triggers.md'),
  page('/docs/behavior/context', 'Context', 'Behavior', 'behavior/context.md'),
  page('/docs/behavior/scripts', 'Scripts', 'Behavior', 'behavior/scripts.md'),
  page('/docs/behavior/readme', 'Readme', 'Behavior', 'behavior/readme.md'),
  page('/docs/features/actions', 'Actions', 'Features', 'features/actions.md'),
  page('/docs/features/environment', 'Environment', 'Features', 'features/environment.md'),
  page('/docs/features/auto-review', 'Auto-review', 'Features', 'features/auto-review.md'),
  page('/docs/cli', 'CLI', 'Reference', 'cli.md'),
  page('/docs/examples', 'Examples', 'Reference', 'examples.md'),
];

export function findDocPage(pathname: string): DocPage | undefined {
  const normalised = pathname.replace(/\/+$/, '') || '/';
  return DOC_PAGES.find((p) => p.path === normalised);
}
