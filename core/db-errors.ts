import { AppError, ConflictError, ValidationError } from './errors.ts';

/** What Postgres said, as pg reports it. */
export interface PgDiagnostics {
  code: string;
  message: string;
  detail?: string;
  constraint?: string;
  table?: string;
  column?: string;
}

export function pgDiagnostics(err: unknown): PgDiagnostics | null {
  if (!err || typeof err !== 'object') return null;
  const pg = err as Record<string, unknown>;
  if (typeof pg.code !== 'string' || !/^[0-9A-Z]{5}$/.test(pg.code) || !('severity' in pg)) return null;
  const text = (k: string) => (typeof pg[k] === 'string' ? (pg[k] as string) : undefined);
  return { code: pg.code, message: String(pg.message ?? ''), detail: text('detail'), constraint: text('constraint'), table: text('table'), column: text('column') };
}

/** Input-shaped data errors (SQLSTATE class 22) that only a value from the request can cause. */
const DATA_ERRORS = new Set(['22P02', '22P05', '22021', '22001', '22003', '22007', '22008']);

/**
 * Maps database errors a request can cause to the typed hierarchy: a unique violation is a
 * 409 (two requests created the same thing at once), a bad value a 400. Anything else stays
 * an internal error.
 */
export function fromDatabaseError(err: unknown): AppError | null {
  const pg = pgDiagnostics(err);
  if (!pg) return null;
  if (pg.code === '23505') {
    // "Key (organization_id, handle)=(org_1, research) already exists."
    const m = /^Key \((.+)\)=\((.*)\) already exists/s.exec(pg.detail ?? '');
    // An expression index names its column inside a call: "lower(email)".
    // The column is named; the stored value is not echoed (the constraint may be on something the caller did not send).
    const columns = m ? m[1].split(', ').map((c) => c.replace(/^\w+\((\w+)\)$/, '$1')) : [];
    const column = columns.findLast((c) => c !== 'id' && !c.endsWith('_id'));
    if (column) return new ConflictError(`That ${column} is taken: another request used it first`, { code: `${column}_taken` });
    return new ConflictError('It already exists: another request created it first', { code: 'already_exists' });
  }
  if (DATA_ERRORS.has(pg.code)) return new ValidationError(`Invalid value: ${pg.message}`, { code: 'invalid_value' });
  return null;
}
