import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { writeOnce } from '../write-once.ts';
import type { Sql } from '../tx.ts';

const RECORD = 'local_storage_id';
export const MARKER_FILE = '.verbatim-storage-id';

export class StorageFolderError extends Error {}

/**
 * With STORAGE=local every process on one database must use the same folder, or media
 * uploaded through one process is missing for the others. The first start writes a marker
 * with a random id into the folder and records the id in the database; a process whose
 * folder lacks that marker is refused.
 */
export async function checkStorageFolder(sql: Sql, root: string): Promise<void> {
  const file = path.join(root, MARKER_FILE);
  const read = () => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trim() : null);
  const recorded = async () =>
    (await sql.query<{ value: string }>(`SELECT value FROM server_secrets WHERE name = $1`, [RECORD])).rows[0]?.value ?? null;

  let expected = await recorded();
  if (!expected) {
    // A process sharing the folder may have written it first: then its id is the one.
    if (!read()) writeOnce(file, randomBytes(12).toString('hex') + '\n');
    const mine = read();
    if (!mine) throw new StorageFolderError(`${file} is empty: remove it and start again`);
    await sql.query(`INSERT INTO server_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING`, [RECORD, mine]);
    expected = await recorded();
  }
  const found = read();
  if (found === expected) return;
  throw new StorageFolderError(
    `STORAGE=local: ${root} is not the storage folder the other processes on this database use ` +
      `(${found ? `its ${MARKER_FILE} holds another id` : `it has no ${MARKER_FILE}`}), so media uploaded through one process would be missing in the others. ` +
      'Give every process the same DATA_DIR (or mount one shared folder at DATA_DIR/storage), or set STORAGE=s3. ' +
      `If this is the right folder and only its marker was lost, write ${expected} into ${file}.`,
  );
}
