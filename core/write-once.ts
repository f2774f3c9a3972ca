import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';

/**
 * Creates `file` holding `content` unless it exists; returns true when this call created it.
 * The content is written to a temporary file first and then linked into place, so a process
 * that finds the file (several starting at once on one folder) never reads it half-written.
 */
export function writeOnce(file: string, content: string, mode = 0o644): boolean {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  fs.writeFileSync(temp, content, { mode, flag: 'wx' });
  try {
    fs.linkSync(temp, file);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  } finally {
    fs.rmSync(temp, { force: true });
  }
}
