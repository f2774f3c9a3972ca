import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';

const CANDIDATES = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/lib/chromium/chromium'].filter(Boolean) as string[];

/** Screenshots kept after a run, for people to look at. */
export const ARTIFACTS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../test-artifacts');

/** Debian's chromium, headless, with the flags this network needs. Missing, it says how to install it. */
export async function launchBrowser(extraArgs: string[] = []): Promise<Browser> {
  const executablePath = CANDIDATES.find((p) => fs.existsSync(p));
  if (!executablePath) {
    throw new Error('Chromium is not installed, and the widget tests need it: run `apt-get install -y chromium` (Debian), or set CHROMIUM_PATH. .ci/run installs it.');
  }
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  return chromium.launch({
    executablePath,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', ...extraArgs],
  });
}
