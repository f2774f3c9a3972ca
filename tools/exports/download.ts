import { z } from 'zod';
import { capability } from '../../core/registry.ts';
import { AppError, ConflictError, DomainError } from '../../core/errors.ts';
import { readOnly, Timestamp } from '../common.ts';
import { ExportIdParam, downloadTtl, exportFilename, findExport, isExpired } from './record.ts';

export const downloadExport = capability({
  name: 'exports.download',
  title: 'Download a data export',
  description:
    'A fresh signed link to the zip of a completed export (valid for an hour, never past the export\'s expiry), with its file name and size. ' +
    '409 while the export is queued or running, 422 when it failed, 410 once it has expired. A browser following the link is redirected to the file.',
  input: z.strictObject({ exportId: ExportIdParam }),
  output: z.object({ download_url: z.string(), expires_at: Timestamp.describe('When this link stops working'), filename: z.string(), size_bytes: z.number().int().nullable() }),
  annotations: readOnly,
  scope: 'read',
  access: 'user',
  mcp: false,
  rest: { method: 'GET', path: '/api/user/data-exports/:exportId/download', redirect: 'download_url' },
  async handler(ctx, input) {
    const row = await findExport(ctx, input.exportId);
    const again = 'Request a new export: POST /api/user/data-exports';
    if (row.status === 'queued' || row.status === 'running') {
      throw new ConflictError('The export is not ready yet', { code: 'export_not_ready', retryable: true, action: `Poll GET /api/user/data-exports/${row.id} until its status is completed` });
    }
    if (row.status === 'failed') throw new DomainError('The export failed', { code: 'export_failed', action: again });
    if (isExpired(row) || !row.storage_key) throw new AppError(410, 'The export has expired and its archive was deleted', { code: 'export_expired', retryable: false, action: again });
    const ttl = downloadTtl(row);
    return {
      download_url: await ctx.services.storage.signedUrl(row.storage_key, ttl, { filename: exportFilename(row) }),
      expires_at: new Date(Date.now() + ttl * 1000).toISOString(),
      filename: exportFilename(row),
      size_bytes: row.size_bytes === null ? null : Number(row.size_bytes),
    };
  },
});
