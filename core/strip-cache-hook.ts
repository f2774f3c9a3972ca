import fs from 'node:fs';
import crypto from 'node:crypto';
import path from 'node:path';
import { registerHooks } from 'node:module';
import { fileURLToPath } from 'node:url';

/**
 * Loaded with `--import` by the service process that `bin/verbatim.ts` starts (its stripped copy,
 * so that loading it strips nothing). Each `.ts` file of the project is served from the copy
 * `strip-cache.ts` made of exactly that source; a source without a copy goes to Node's own
 * stripper as usual. Node's built-ins only: this file is loaded before any other.
 */
const cacheDir = path.dirname(fileURLToPath(import.meta.url));

registerHooks({
  load(url, context, nextLoad) {
    if (url.startsWith('file:') && url.endsWith('.ts') && !url.includes('/node_modules/')) {
      try {
        const key = crypto.createHash('sha256').update(fs.readFileSync(fileURLToPath(url))).digest('hex');
        const source = fs.readFileSync(path.join(cacheDir, `${key}.js`), 'utf8');
        return { format: 'module', source, shortCircuit: true };
      } catch {
        // no copy of this source: Node strips it
      }
    }
    return nextLoad(url, context);
  },
});
