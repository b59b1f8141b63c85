/** Files of the seeded repositories: small, real projects whose tests pass with no dependencies. */
export const WEBAPP_FILES: Record<string, string> = {
  'README.md': `# webapp

A tiny Node.js web helper library used to try Tandem agents.

\`\`\`sh
npm test
\`\`\`
`,
  'package.json': `${JSON.stringify(
    {
      name: 'webapp',
      version: '1.0.0',
      private: true,
      type: 'module',
      scripts: { test: 'node --test' },
    },
    null,
    2,
  )}\n`,
  // The local CI runs this on every push (npm test needs no dependencies, so no network either).
  // Push only: with pull_request too, a pull request's every commit would run twice.
  '.github/workflows/ci.yml': `name: CI
on:
  push:
jobs:
  test:
    name: Test
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-node@v4
        with:
          node-version: 22
      - name: Run the tests
        run: npm test
`,
  'src/math.js': `export function add(a, b) {
  return a + b;
}

export function multiply(a, b) {
  return a * b;
}
`,
  'src/greet.js': `export function greet(name) {
  return \`Hello, \${name}!\`;
}
`,
  'test/math.test.js': `import { test } from 'node:test';
import assert from 'node:assert/strict';
import { add, multiply } from '../src/math.js';

test('add', () => {
  assert.equal(add(2, 3), 5);
});

test('multiply', () => {
  assert.equal(multiply(4, 5), 20);
});
`,
  'test/greet.test.js': `import { test } from 'node:test';
import assert from 'node:assert/strict';
import { greet } from '../src/greet.js';

test('greet', () => {
  assert.equal(greet('Ada'), 'Hello, Ada!');
});
`,
};

export const WEBAPP_ISSUES = [
  {
    title: 'Add a subtract function',
    body: 'We have `add` and `multiply` in `src/math.js` but no `subtract`. Add it with a test.',
  },
  {
    title: 'Greet should trim the name',
    body: "`greet('  Ada ')` returns `Hello,   Ada !`. Trim the name first.",
  },
  {
    title: 'Document the library in the README',
    body: 'List the exported functions with a one-line example each.',
  },
];

export const API_FILES: Record<string, string> = {
  'README.md': '# api\n\nThe acme HTTP API (placeholder service for Tandem demos).\n',
  'server.js': `import { createServer } from 'node:http';

const port = Number(process.env.PORT ?? 3000);
createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ ok: true, path: req.url }));
}).listen(port, '0.0.0.0');
`,
};

export const PLAYGROUND_FILES: Record<string, string> = {
  'README.md': "# playground\n\nAda's scratch repository.\n",
};

export const TEMPLATE_FILES: Record<string, string> = {
  'README.md':
    '# JavaScript starter\n\nA minimal Node.js project: `npm start` runs `index.js`, `npm test` runs the tests.\n',
  'package.json': `${JSON.stringify(
    {
      name: 'javascript-starter',
      version: '0.1.0',
      private: true,
      type: 'module',
      scripts: { start: 'node index.js', test: 'node --test' },
    },
    null,
    2,
  )}\n`,
  'index.js': "console.log('Hello from the JavaScript starter');\n",
  'test/index.test.js': "import { test } from 'node:test';\n\ntest('starter runs', () => {});\n",
};
