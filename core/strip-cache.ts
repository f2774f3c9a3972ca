import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { stripTypeScriptTypes } from 'node:module';
import { fileURLToPath } from 'node:url';

/**
 * The project's TypeScript, stripped of its types ahead of time by Node's own stripper, for a
 * long-running process. Node strips each `.ts` file as it loads it with a WebAssembly build of
 * swc that then stays in the process for good (~15 MiB of RSS). The launcher (`bin/verbatim.ts`)
 * strips every server file here once, before it replaces itself with the service process; the
 * service loads these copies through `strip-cache-hook.ts` and never loads the stripper.
 *
 * A copy is named by the SHA-256 of its source, so an edited file is simply not found (the hook
 * then lets Node strip it as usual): the copies can never be older than the code. Same stripper,
 * same mode, so the code that runs is the one Node would have run, at the same lines and columns.
 */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const CACHE_DIR = path.join(ROOT, 'node_modules', '.cache', 'verbatim-stripped');
/** Folders whose `.ts` files the server may load (not tests, bench or the browser apps; docs/changelog.ts is served). */
const SERVER_DIRS = ['auth', 'bin', 'core', 'docs', 'jobs', 'models', 'prompts', 'resources', 'rest', 'tools', 'training'];
/** Copies of sources that no longer exist are removed once this old (other checkouts may share the folder). */
const PRUNE_AFTER_MS = 7 * 24 * 3600_000;

export const sourceKey = (source: string | Buffer) => crypto.createHash('sha256').update(source).digest('hex');
export const cachedPath = (key: string) => path.join(CACHE_DIR, `${key}.js`);

function serverSources(): string[] {
  const out: string[] = [];
  for (const dir of SERVER_DIRS) {
    const abs = path.join(ROOT, dir);
    if (!fs.existsSync(abs)) continue;
    for (const rel of fs.readdirSync(abs, { recursive: true, encoding: 'utf8' })) {
      if (rel.endsWith('.ts') && !rel.endsWith('.d.ts')) out.push(path.join(abs, rel));
    }
  }
  return out;
}

/** stripTypeScriptTypes warns that it is experimental on every process; the launcher's output stays as it was. */
function quietly<T>(fn: () => T): T {
  const emit = process.emitWarning;
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    const text = typeof warning === 'string' ? warning : warning.message;
    if (!text.includes('stripTypeScriptTypes')) (emit as (...a: unknown[]) => void).call(process, warning, ...rest);
  }) as typeof process.emitWarning;
  try {
    return fn();
  } finally {
    process.emitWarning = emit;
  }
}

/** Written aside and renamed: a process starting at the same moment sees the whole file or none. */
function writeWhole(target: string, content: string): void {
  const temp = `${target}.${process.pid}.tmp`;
  fs.writeFileSync(temp, content);
  fs.renameSync(temp, target);
}

/**
 * Writes the copies that are missing and returns the path of the hook's own copy, to be loaded
 * with `--import`; null if the folder cannot be written (the service then strips as usual).
 */
export function prepareStrippedSources(): string | null {
  try {
    return prepare();
  } catch {
    return null; // a full disk, a read-only install: the service runs as before
  }
}

function prepare(): string | null {
  try {
    fs.mkdirSync(CACHE_DIR, { recursive: true });
    // The copies are ES modules (the hook is imported from here by path; node_modules ends the search for a package type).
    const pkg = path.join(CACHE_DIR, 'package.json');
    if (!fs.existsSync(pkg)) writeWhole(pkg, '{"type":"module"}\n');
  } catch {
    return null;
  }
  const hookSource = path.join(ROOT, 'core', 'strip-cache-hook.ts');
  let hook: string | null = null;
  const wanted = new Set<string>();
  quietly(() => {
    for (const file of serverSources()) {
      const bytes = fs.readFileSync(file);
      const key = sourceKey(bytes);
      wanted.add(`${key}.js`);
      const target = cachedPath(key);
      if (file === hookSource) hook = target;
      if (fs.existsSync(target)) continue;
      let code: string;
      try {
        code = stripTypeScriptTypes(bytes.toString('utf8'), { mode: 'strip' });
      } catch {
        if (file === hookSource) hook = null;
        continue; // Node will report it with the file's name when (if) the file is loaded
      }
      writeWhole(target, code);
    }
  });
  const now = Date.now();
  for (const name of fs.readdirSync(CACHE_DIR)) {
    if (wanted.has(name) || name === 'package.json') continue;
    const file = path.join(CACHE_DIR, name);
    try {
      if (now - fs.statSync(file).mtimeMs > PRUNE_AFTER_MS) fs.rmSync(file, { force: true });
    } catch {
      // removed by another process meanwhile
    }
  }
  return hook;
}
