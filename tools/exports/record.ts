import { z } from 'zod';
import type { Services, Ctx } from '../../core/context.ts';
import { principalOf } from '../../core/context.ts';
import { NotFoundError } from '../../core/errors.ts';
import { Timestamp, iso, isoRequired } from '../common.ts';

export const EXPORT_STATUSES = ['queued', 'running', 'completed', 'failed'] as const;
/** A finished archive can be downloaded for this long, then it is deleted. */
export const EXPORT_TTL_DAYS = 7;
/** Media links inside the archive; S3 presigned URLs cannot outlive 7 days. */
export const MEDIA_URL_TTL_SECONDS = 7 * 24 * 3600;
/** The archive's own download link; ask again for a fresh one. */
export const DOWNLOAD_URL_TTL_SECONDS = 3600;

export interface ExportRow {
  id: string;
  user_id: string;
  status: (typeof EXPORT_STATUSES)[number];
  progress: number;
  projects_total: number | null;
  projects_done: number;
  storage_key: string | null;
  size_bytes: string | number | null;
  error_message: string | null;
  requested_at: Date;
  started_at: Date | null;
  completed_at: Date | null;
  expires_at: Date;
}

export const ExportJob = z
  .object({
    id: z.string(),
    status: z.enum(EXPORT_STATUSES),
    requested_at: Timestamp,
    started_at: Timestamp.nullable(),
    completed_at: Timestamp.nullable(),
    expires_at: Timestamp.describe('When the archive is deleted (7 days after completion)'),
    download_url: z.string().nullable().describe('Signed link to the zip, valid for an hour; null until completed and after expiry'),
    error_message: z.string().nullable(),
    progress: z.object({
      percent: z.number().int().min(0).max(100),
      projects_done: z.number().int(),
      projects_total: z.number().int().nullable().describe('Known once the export is running'),
    }),
    size_bytes: z.number().int().nullable(),
  })
  .meta({ id: 'DataExportJob' });

export const JobResponse = z.object({
  job: ExportJob,
  media_url_ttl_seconds: z.number().describe('How long the media links inside the archive stay valid after it was written'),
});

export const ExportIdParam = z.string().min(1).max(64).describe('Export id (exp_...)');

export function isExpired(row: ExportRow): boolean {
  return row.expires_at.getTime() <= Date.now();
}

export async function exportRecord(services: Services, row: ExportRow): Promise<z.input<typeof ExportJob>> {
  const downloadable = row.status === 'completed' && row.storage_key !== null && !isExpired(row);
  return {
    id: row.id,
    status: row.status,
    requested_at: isoRequired(row.requested_at),
    started_at: iso(row.started_at),
    completed_at: iso(row.completed_at),
    expires_at: isoRequired(row.expires_at),
    download_url: downloadable ? await services.storage.signedUrl(row.storage_key!, downloadTtl(row), { filename: exportFilename(row) }) : null,
    error_message: row.error_message,
    progress: { percent: row.progress, projects_done: row.projects_done, projects_total: row.projects_total },
    size_bytes: row.size_bytes === null ? null : Number(row.size_bytes),
  };
}

/** Seconds a download link lives: an hour, never past the export's expiry. */
export function downloadTtl(row: Pick<ExportRow, 'expires_at'>): number {
  return Math.max(1, Math.min(DOWNLOAD_URL_TTL_SECONDS, Math.floor((row.expires_at.getTime() - Date.now()) / 1000)));
}

export function exportFilename(row: Pick<ExportRow, 'id' | 'requested_at'>): string {
  return `verbatim-export-${row.requested_at.toISOString().slice(0, 10)}-${row.id}.zip`;
}

export function exportKey(row: Pick<ExportRow, 'id' | 'user_id'>): string {
  return `exports/${row.user_id}/${row.id}.zip`;
}

/** One of the caller's exports; anyone else's is not found. */
export async function findExport(ctx: Ctx, id: string): Promise<ExportRow> {
  const { rows } = await ctx.services.db.pool.query<ExportRow>(`SELECT * FROM data_exports WHERE id = $1 AND user_id = $2`, [id, principalOf(ctx).userId]);
  if (!rows[0]) throw new NotFoundError('Export not found');
  return rows[0];
}
