import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// semver is what npm itself checks `engines` with (a dependency of the toolchain, not ours).
const semver = createRequire(import.meta.url)('semver') as {
  satisfies(version: string, range: string): boolean;
};

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
/** The oldest release of each supported LTS line (README: Node 22 and 24). */
const SUPPORTED = ['22.13.0', '24.0.0'];

function* installedPackages(dir: string): Generator<{ name: string; node: string }> {
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const path = join(dir, entry.name);
    if (entry.name.startsWith('@')) {
      yield* installedPackages(path);
      continue;
    }
    const manifest = join(path, 'package.json');
    if (existsSync(manifest)) {
      const json = JSON.parse(readFileSync(manifest, 'utf8')) as {
        name?: string;
        version?: string;
        engines?: { node?: unknown };
      };
      if (typeof json.engines?.node === 'string')
        yield { name: `${json.name}@${json.version}`, node: json.engines.node };
    }
    yield* installedPackages(join(path, 'node_modules'));
  }
}

describe('supported Node versions', () => {
  it('the root engines range is the supported LTS lines', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { engines: { node: string } };
    for (const version of SUPPORTED) expect(semver.satisfies(version, pkg.engines.node)).toBe(true);
    expect(semver.satisfies('20.19.0', pkg.engines.node)).toBe(false);
  });

  it('no installed dependency excludes a supported version', () => {
    const excluded: string[] = [];
    for (const dir of [join(root, 'node_modules'), join(root, 'apps', 'web', 'node_modules')]) {
      for (const pkg of installedPackages(dir)) {
        for (const version of SUPPORTED)
          if (!semver.satisfies(version, pkg.node))
            excluded.push(`${pkg.name} (${pkg.node}) excludes ${version}`);
      }
    }
    expect(excluded).toEqual([]);
  });
});
