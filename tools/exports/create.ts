import { z } from 'zod';
import { capability } from '../../core/registry.ts';
import { principalOf } from '../../core/context.ts';
import { newId } from '../../core/ids.ts';
import { addJob } from '../../core/queue.ts';
import { creates } from '../common.ts';
import { EXPORT_TTL_DAYS, JobResponse, MEDIA_URL_TTL_SECONDS, exportRecord, type ExportRow } from './record.ts';
import { inTransaction, type Sql } from '../../core/tx.ts';

export const EXPORT_MAX_ATTEMPTS = 3;
/** A running export touches its row every few seconds; one silent this long died with its worker. */
const STALE_EXPORT_MINUTES = 10;

async function failStaleExport(sql: Sql, userId: string): Promise<void> {
  await sql.query(
    `UPDATE data_exports SET status = 'failed', error_message = 'The export stopped unexpectedly. Request a new one.', updated_at = now()
      WHERE user_id = $1 AND status = 'running' AND updated_at < now() - make_interval(mins => $2)`,
    [userId, STALE_EXPORT_MINUTES],
  );
}

/** A new queued export, or null when the user already has one queued or running. */
async function insertExport(sql: Sql, userId: string): Promise<ExportRow | null> {
  const { rows } = await sql.query<ExportRow>(
    `INSERT INTO data_exports (id, user_id, status, expires_at) VALUES ($1, $2, 'queued', now() + make_interval(days => $3))
     ON CONFLICT (user_id) WHERE status IN ('queued', 'running') DO NOTHING RETURNING *`,
    [newId('exp'), userId, EXPORT_TTL_DAYS],
  );
  return rows[0] ?? null;
}

async function activeExport(sql: Sql, userId: string): Promise<ExportRow | null> {
  const { rows } = await sql.query<ExportRow>(`SELECT * FROM data_exports WHERE user_id = $1 AND status IN ('queued', 'running')`, [userId]);
  return rows[0] ?? null;
}

export const createExport = capability({
  name: 'exports.create',
  title: 'Export my data',
  description:
    'Starts a background export of everything the caller can see — profile, organizations, and for every project of their organizations ' +
    'the studies, intakes with responses, interviews with transcripts, evidence, findings and work items — as a zip of JSON files. ' +
    'Media is not copied: the archive lists it with signed links valid media_url_ttl_seconds. One export runs at a time: while one is ' +
    'queued or running, this returns it instead of starting another. Poll GET /api/user/data-exports/:exportId until completed.',
  input: z.strictObject({}),
  output: JobResponse,
  annotations: creates,
  scope: 'write',
  access: 'user',
  mcp: false,
  rest: { method: 'POST', path: '/api/user/data-exports', status: 202 },
  async handler(ctx) {
    const userId = principalOf(ctx).userId;
    const row = await inTransaction(ctx.services.db.pool, async (sql) => {
      await failStaleExport(sql, userId);
      // The active export can finish between the two statements; then a new one may start.
      for (let i = 0; i < 3; i++) {
        const created = await insertExport(sql, userId);
        if (created) {
          await addJob(sql, 'data_export', { exportId: created.id }, { jobKey: `data-export:${created.id}`, maxAttempts: EXPORT_MAX_ATTEMPTS });
          return created;
        }
        const active = await activeExport(sql, userId);
        if (active) return active;
      }
      throw new Error('could not create or find an active export');
    });
    return { job: await exportRecord(ctx.services, row), media_url_ttl_seconds: MEDIA_URL_TTL_SECONDS };
  },
});
