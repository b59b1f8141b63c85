import { ensureInstalled } from './lib.mjs';

await ensureInstalled();
