/**
 * The few edits the offline demo model understands in a user's message. It has no language model:
 * a request it cannot read as one of these gets a notes file instead (demo-plan.ts), so the demo
 * still ends in a real commit and pull request.
 */
export type DemoEdit =
  | { kind: 'create'; path: string; content: string }
  | { kind: 'append'; path: string; text: string }
  | { kind: 'replace'; path: string; from: string; to: string };

const QUOTES: [string, string][] = [
  ['"', '"'],
  ["'", "'"],
  ['\x60', '\x60'],
  ['“', '”'],
];

/** A quoted argument named `name`, in any of the quote styles, on one line. */
function quoted(name: string): string {
  return `(?:${QUOTES.map(([open, close], i) => `${open}(?<${name}${i}>[^${close}\\n]+)${close}`).join('|')})`;
}

/** A repository path named `name`: a file name with an extension or a nested path, maybe quoted. */
function path(name: string): string {
  return `[\x60"']?(?<${name}0>[\\w./-]+\\.[\\w-]+|[\\w-]+\\/[\\w./-]+)[\x60"']?`;
}

function group(match: RegExpMatchArray, name: string): string {
  for (let i = 0; i < QUOTES.length; i += 1) {
    const value = match.groups?.[`${name}${i}`];
    if (value !== undefined) return value;
  }
  return '';
}

const PATTERNS: { re: RegExp; build: (match: RegExpMatchArray) => DemoEdit }[] = [
  {
    // replace "a" with "b" in path / change "a" to "b" in path
    re: new RegExp(
      `\\b(?:replace|change)\\s+${quoted('from')}\\s+(?:with|to|by)\\s+${quoted('to')}\\s+in\\s+${path('path')}`,
      'i',
    ),
    build: (m) => ({ kind: 'replace', path: group(m, 'path'), from: group(m, 'from'), to: group(m, 'to') }),
  },
  {
    // create (a) (new) file path with / containing "text"
    re: new RegExp(
      `\\b(?:create|add|make)\\s+(?:a\\s+)?(?:new\\s+)?file\\s+${path('path')}\\s+(?:with|containing|that says)\\s+${quoted('text')}`,
      'i',
    ),
    build: (m) => ({ kind: 'create', path: group(m, 'path'), content: group(m, 'text') }),
  },
  {
    // add (a line) "text" to path / append "text" to path
    re: new RegExp(
      `\\b(?:add|append)\\s+(?:a\\s+)?(?:line\\s+|note\\s+)?${quoted('text')}\\s+(?:to|at the end of)\\s+${path('path')}`,
      'i',
    ),
    build: (m) => ({ kind: 'append', path: group(m, 'path'), text: group(m, 'text') }),
  },
];

/** A path the demo may write: relative, inside the repository, never under .git. */
export function safeRepoPath(path: string): string | null {
  const clean = path.replace(/^\.\//, '');
  if (!clean || clean.startsWith('/') || clean.split('/').some((part) => part === '..' || part === '.git')) {
    return null;
  }
  return clean;
}

export function parseDemoEdit(request: string): DemoEdit | null {
  for (const { re, build } of PATTERNS) {
    const match = request.match(re);
    if (!match) continue;
    const edit = build(match);
    const path = safeRepoPath(edit.path);
    if (path) return { ...edit, path };
  }
  return null;
}
