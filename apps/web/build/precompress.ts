import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Text formats worth compressing; images and woff2 are compressed already, source maps are for tools. */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt|ttf|wasm|webmanifest)$/;
/**
 * Brotli's best quality costs ~8 s on the 3 MB Monaco chunk for 9 % fewer bytes than quality 9
 * (0.7 s); the big, lazily loaded chunks take 9 so builds stay quick.
 */
const BEST_QUALITY_MAX_BYTES = 1024 * 1024;

async function* filesUnder(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(path);
    else if (entry.isFile()) yield path;
  }
}

/**
 * Writes `file.br` (brotli, best quality up to 1 MB) and `file.gz` (gzip -9) beside every compressible file of
 * a finished build, kept only when smaller than the original (so only a few tiny files have none;
the server then compresses those per request). The server picks one by the request's
 * Accept-Encoding (@fastify/static `preCompressed`), so no request pays for compression.
 */
export async function precompressDirectory(
  dir: string,
): Promise<{ files: number; bytes: number; brotli: number }> {
  const jobs: Promise<{ bytes: number; brotli: number }>[] = [];
  for await (const path of filesUnder(dir)) {
    if (!COMPRESSIBLE.test(path)) continue;
    jobs.push(
      (async () => {
        const data = await readFile(path);
        const [br, gz] = await Promise.all([
          brotli(data, {
            params: {
              [constants.BROTLI_PARAM_QUALITY]:
                data.length <= BEST_QUALITY_MAX_BYTES ? constants.BROTLI_MAX_QUALITY : 9,
              [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
              [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
            },
          }),
          gzipAsync(data, { level: 9 }),
        ]);
        if (br.length < data.length) await writeFile(`${path}.br`, br);
        if (gz.length < data.length) await writeFile(`${path}.gz`, gz);
        return { bytes: data.length, brotli: Math.min(br.length, data.length) };
      })(),
    );
  }
  const results = await Promise.all(jobs);
  return {
    files: results.length,
    bytes: results.reduce((sum, r) => sum + r.bytes, 0),
    brotli: results.reduce((sum, r) => sum + r.brotli, 0),
  };
}

/** Vite plugin: pre-compress the client build once it is written. */
export function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'tandem-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = join(config.root, config.build.outDir);
    },
    async closeBundle() {
      const started = Date.now();
      const { files, bytes, brotli: compressed } = await precompressDirectory(outDir);
      this.info?.(
        `pre-compressed ${files} files: ${(bytes / 1024).toFixed(0)} KB → ${(compressed / 1024).toFixed(0)} KB brotli in ${Date.now() - started} ms`,
      );
    },
  };
}
