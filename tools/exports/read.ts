import { z } from 'zod';
import { capability } from '../../core/registry.ts';
import { principalOf } from '../../core/context.ts';
import { readOnly } from '../common.ts';
import { ExportIdParam, ExportJob, JobResponse, MEDIA_URL_TTL_SECONDS, exportRecord, findExport, type ExportRow } from './record.ts';

export const listExports = capability({
  name: 'exports.list',
  title: 'My data exports',
  description: "The caller's data exports, newest first, with status, progress and, once completed and until expiry, a signed download link.",
  input: z.strictObject({ limit: z.number().int().min(1).max(100).default(20) }),
  output: z.object({ jobs: z.array(ExportJob), media_url_ttl_seconds: z.number() }),
  annotations: readOnly,
  scope: 'read',
  access: 'user',
  mcp: false,
  rest: { method: 'GET', path: '/api/user/data-exports' },
  async handler(ctx, input) {
    const { rows } = await ctx.services.db.pool.query<ExportRow>(
      `SELECT * FROM data_exports WHERE user_id = $1 ORDER BY requested_at DESC, id LIMIT $2`,
      [principalOf(ctx).userId, input.limit],
    );
    return { jobs: await Promise.all(rows.map((r) => exportRecord(ctx.services, r))), media_url_ttl_seconds: MEDIA_URL_TTL_SECONDS };
  },
});

export const getExport = capability({
  name: 'exports.get',
  title: 'One data export',
  description: 'Status and progress of one of the caller\'s data exports; download_url is null until it is completed, and again after expires_at.',
  input: z.strictObject({ exportId: ExportIdParam }),
  output: JobResponse,
  annotations: readOnly,
  scope: 'read',
  access: 'user',
  mcp: false,
  rest: { method: 'GET', path: '/api/user/data-exports/:exportId' },
  async handler(ctx, input) {
    return { job: await exportRecord(ctx.services, await findExport(ctx, input.exportId)), media_url_ttl_seconds: MEDIA_URL_TTL_SECONDS };
  },
});
