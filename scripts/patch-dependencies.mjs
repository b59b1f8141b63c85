// Small fixes to installed dependencies, applied after every `npm ci` (the root's postinstall) and
// by `ensureInstalled` (scripts/lib.mjs) for a node_modules installed before a fix was added.
// Plain Node (no dependencies). Usage: node scripts/patch-dependencies.mjs [root]
//
// Each fix replaces one exact piece of a package's built code (in every .js file of `dir`, or in
// the named `files`). A file that already has the replacement is left alone; when no file has
// either text (the package changed), it says so and changes nothing: the fix is then lost, never
// guessed at. pglite-patch.test.ts (packages/db) and ai-sdk-patch.test.ts (packages/agent) fail
// when an installed package is not patched.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PATCHES = [
  {
    name: "PGlite's result parser decodes text without copying it first",
    // PGlite 0.5.16 (pinned in packages/db): its protocol reader's string() copied every field
    // into a new ArrayBuffer (`buffer.slice`) before decoding it. A result row is one such copy
    // per column; the allocations and the garbage collection they cause were a third of the
    // database thread's time when 100 agents start on a fresh server (docs/decisions.md
    // "Decoding PGlite's results without a copy"). TextDecoder decodes a view of the same bytes.
    dir: 'node_modules/@electric-sql/pglite/dist',
    from: 'string(t){return r(this,le).decode(this.bytes(t))}',
    to: 'string(t){let n=r(this,w);return d(this,w,n+t),r(this,le).decode(new Uint8Array(r(this,x).buffer,n,t))}',
  },
  // The AI SDK (ai 6.0.324, pinned in packages/agent) checks every model call's messages against
  // `z.array(modelMessageSchema)`, an array schema made anew per call. Zod's cycle guard walks a
  // new schema's whole tree on its first parse (some 60 KB of closures and sets for the message
  // schemas) and caches the answer on that schema only, so the walk ran on every call: about a
  // fifth of the SDK's own time when 100 agents start at once, and garbage the collector then had
  // to clear (docs/decisions.md "One prompt schema for every model call"). The same check, with
  // one array schema kept on the function for every call. ai 7 no longer checks at all.
  ...['index.mjs', 'index.js'].map((file) => {
    const array = file === 'index.mjs' ? 'z6.array' : 'import_v46.z.array';
    return {
      name: `The AI SDK checks a prompt against one schema, not one made per call (${file})`,
      dir: 'node_modules/ai/dist',
      files: [file],
      from: `value: messages,\n    schema: ${array}(modelMessageSchema)\n  });`,
      to: `value: messages,\n    schema: standardizePrompt.tandemMessagesSchema ??= ${array}(modelMessageSchema)\n  });`,
    };
  }),
];

/**
 * Applies every patch under `root`; returns one line per patch: `applied`, `already applied`, or
 * why it was not (`missing`: the package is not installed; `not found`: its code changed).
 */
export function patchDependencies(root) {
  return PATCHES.map((patch) => {
    const dir = join(root, patch.dir);
    if (!existsSync(dir)) return { name: patch.name, outcome: 'missing' };
    let outcome = 'not found';
    const files = patch.files ?? readdirSync(dir).filter((f) => f.endsWith('.js'));
    for (const file of files.filter((f) => existsSync(join(dir, f)))) {
      const path = join(dir, file);
      const text = readFileSync(path, 'utf8');
      if (text.includes(patch.to)) outcome = outcome === 'applied' ? outcome : 'already applied';
      else if (text.includes(patch.from)) {
        writeFileSync(path, text.split(patch.from).join(patch.to));
        outcome = 'applied';
      }
    }
    return { name: patch.name, outcome };
  });
}

/** Applies the patches under `root` and says what it did (nothing when all were already applied). */
export function applyDependencyPatches(root) {
  for (const { name, outcome } of patchDependencies(root)) {
    if (outcome === 'not found')
      process.stderr.write(`[tandem] dependency patch not applied (its code changed): ${name}\n`);
    else if (outcome === 'applied') process.stdout.write(`[tandem] dependency patch applied: ${name}\n`);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  applyDependencyPatches(process.argv[2] ?? dirname(dirname(fileURLToPath(import.meta.url))));
}
