import type { Services } from '../../core/context.ts';
import { EXPORT_TTL_DAYS, MEDIA_URL_TTL_SECONDS, exportKey, type ExportRow } from './record.ts';
import { projectFiles, userFiles, zeroCounts } from './contents.ts';
import { zipToStorage } from './zip-writer.ts';

/** A running export touches its row at least this often; see STALE_EXPORT_MINUTES. */
const HEARTBEAT_MS = 10_000;
const FAILED_MESSAGE = 'The archive could not be written. Request a new export; if it fails again, tell the operator.';

async function writeArchive(services: Services, job: ExportRow) {
  const { pool } = services.db;
  const zip = await zipToStorage(services.storage, exportKey(job));
  try {
    const counts = zeroCounts();
    const generatedAt = new Date();
    const user = await userFiles(services, job.user_id, counts);
    let beat = Date.now();
    for (const file of user.files) await zip.add(file.name, file.data);
    await pool.query(`UPDATE data_exports SET projects_total = $2, updated_at = now() WHERE id = $1`, [job.id, user.projects.length]);
    let done = 0;
    for (const place of user.projects) {
      const folder = `projects/${place.orgHandle}/${place.project.handle}`;
      for await (const file of projectFiles(services, place, MEDIA_URL_TTL_SECONDS, counts)) {
        await zip.add(`${folder}/${file.name}`, file.data);
        if (Date.now() - beat > HEARTBEAT_MS) {
          beat = Date.now();
          await pool.query(`UPDATE data_exports SET updated_at = now() WHERE id = $1`, [job.id]);
        }
      }
      done++;
      await pool.query(`UPDATE data_exports SET projects_done = $2, progress = $3, updated_at = now() WHERE id = $1`, [job.id, done, Math.min(99, Math.floor((done / user.projects.length) * 100))]);
    }
    await zip.add('manifest.json', {
      format_version: 1,
      export_id: job.id,
      user: { id: job.user_id, email: user.profile.email },
      requested_at: job.requested_at.toISOString(),
      generated_at: generatedAt.toISOString(),
      media_url_ttl_seconds: MEDIA_URL_TTL_SECONDS,
      media_urls_expire_at: new Date(generatedAt.getTime() + MEDIA_URL_TTL_SECONDS * 1000).toISOString(),
      counts,
      projects: user.projects.map((p) => ({ org_handle: p.orgHandle, project_handle: p.project.handle, name: p.project.name, folder: `projects/${p.orgHandle}/${p.project.handle}/` })),
    });
    return await zip.finish();
  } catch (err) {
    zip.abort(err as Error);
    throw err;
  }
}

/**
 * Runs one export: queued → running → completed, or failed once the last attempt fails.
 * An earlier failed attempt stays running and starts over on retry.
 */
export async function runExport(services: Services, exportId: string, lastAttempt: boolean): Promise<void> {
  const { pool } = services.db;
  const { rows } = await pool.query<ExportRow>(
    `UPDATE data_exports SET status = 'running', started_at = coalesce(started_at, now()), progress = 0, projects_done = 0, updated_at = now()
      WHERE id = $1 AND status IN ('queued', 'running') RETURNING *`,
    [exportId],
  );
  const job = rows[0];
  if (!job) return;
  try {
    const stored = await writeArchive(services, job);
    await pool.query(
      `UPDATE data_exports SET status = 'completed', progress = 100, storage_key = $2, size_bytes = $3, completed_at = now(),
              expires_at = now() + make_interval(days => $4), updated_at = now() WHERE id = $1 AND status = 'running'`,
      [job.id, stored.key, stored.size, EXPORT_TTL_DAYS],
    );
  } catch (err) {
    services.log.warn('data export failed', { exportId, lastAttempt, message: (err as Error).message });
    await services.storage.delete(exportKey(job)).catch(() => {});
    if (!lastAttempt) throw err;
    await pool.query(`UPDATE data_exports SET status = 'failed', error_message = $2, updated_at = now() WHERE id = $1`, [job.id, FAILED_MESSAGE]);
  }
}

/** Deletes the archives of expired exports; their rows stay, without a download. */
export async function sweepExpiredExports(services: Services): Promise<number> {
  const { rows } = await services.db.pool.query<{ id: string; storage_key: string }>(
    `SELECT id, storage_key FROM data_exports WHERE storage_key IS NOT NULL AND expires_at <= now() ORDER BY expires_at LIMIT 500`,
  );
  for (const row of rows) {
    await services.storage.delete(row.storage_key);
    await services.db.pool.query(`UPDATE data_exports SET storage_key = NULL, updated_at = now() WHERE id = $1`, [row.id]);
  }
  return rows.length;
}
