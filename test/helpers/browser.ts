import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sparticuz from '@sparticuz/chromium';
import { chromium, type Browser } from 'playwright-core';

/** Screenshots kept after a run, for people to look at. */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const ARTIFACTS = path.join(ROOT, 'test-artifacts');

// Flags of the serverless build left out: two would hide what a real browser refuses (CORS, mixed content),
// and one process for everything ends the browser when a test closes its page.
const DROPPED = new Set(['--disable-web-security', '--allow-running-insecure-content', '--single-process']);

/**
 * The Chromium that ships brotli-compressed inside the @sparticuz/chromium devDependency, unpacked once per
 * version into its own folder. The package unpacks into os.tmpdir() and reuses whatever `chromium` it finds
 * there, so a child process unpacks it into a private folder that is then renamed into place: test files
 * starting in parallel never run a half-written binary, nor another project's.
 */
function bundledChromium(): string {
  const { version } = JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules/@sparticuz/chromium/package.json'), 'utf8')) as { version: string };
  const dir = path.join(os.tmpdir(), `verbatim-chromium-${version}`);
  const bin = path.join(dir, 'chromium');
  if (fs.existsSync(bin)) return bin;
  const staging = fs.mkdtempSync(`${dir}.unpacking-`);
  try {
    execFileSync(process.execPath, ['--input-type=module', '-e', "await (await import('@sparticuz/chromium')).default.executablePath();"], {
      cwd: ROOT,
      env: { ...process.env, TMPDIR: staging },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    fs.renameSync(staging, dir);
  } catch (e) {
    fs.rmSync(staging, { recursive: true, force: true });
    // Another test file unpacked it first: use theirs.
    if (!fs.existsSync(bin)) throw e;
  }
  return bin;
}

/** Headless Chromium (CHROMIUM_PATH, else the one from npm) with the flags this network needs. */
export async function launchBrowser(extraArgs: string[] = []): Promise<Browser> {
  const executablePath = process.env.CHROMIUM_PATH || bundledChromium();
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  return chromium.launch({
    executablePath,
    headless: true,
    args: [
      ...sparticuz.args.filter((a) => !DROPPED.has(a)),
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      ...extraArgs,
    ],
  });
}
