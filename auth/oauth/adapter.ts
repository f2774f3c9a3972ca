import type pg from 'pg';
import type { Adapter, AdapterPayload } from 'oidc-provider';

/** oidc-provider's storage in Postgres: one JSONB row per model instance, so every process shares it. */
export function pgAdapter(pool: pg.Pool) {
  return class PgAdapter implements Adapter {
    name: string;
    constructor(name: string) {
      this.name = name;
    }
    async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
      await pool.query(
        `INSERT INTO oidc_payloads (id, model, payload, grant_id, user_code, uid, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, CASE WHEN $7::int > 0 THEN now() + make_interval(secs => $7::int) END)
         ON CONFLICT (id, model) DO UPDATE SET payload = EXCLUDED.payload, grant_id = EXCLUDED.grant_id, user_code = EXCLUDED.user_code, uid = EXCLUDED.uid, expires_at = EXCLUDED.expires_at`,
        [id, this.name, JSON.stringify(payload), payload.grantId ?? null, payload.userCode ?? null, payload.uid ?? null, expiresIn ?? 0],
      );
    }
    private async one(where: string, value: string): Promise<AdapterPayload | undefined> {
      const { rows } = await pool.query<{ payload: AdapterPayload; consumed_at: Date | null }>(
        `SELECT payload, consumed_at FROM oidc_payloads WHERE model = $1 AND ${where} = $2 AND (expires_at IS NULL OR expires_at > now())`,
        [this.name, value],
      );
      const row = rows[0];
      if (!row) return undefined;
      return row.consumed_at ? { ...row.payload, consumed: Math.floor(row.consumed_at.getTime() / 1000) } : row.payload;
    }
    find(id: string) {
      return this.one('id', id);
    }
    findByUserCode(userCode: string) {
      return this.one('user_code', userCode);
    }
    findByUid(uid: string) {
      return this.one('uid', uid);
    }
    async consume(id: string): Promise<void> {
      await pool.query(`UPDATE oidc_payloads SET consumed_at = now() WHERE id = $1 AND model = $2`, [id, this.name]);
    }
    async destroy(id: string): Promise<void> {
      await pool.query(`DELETE FROM oidc_payloads WHERE id = $1 AND model = $2`, [id, this.name]);
    }
    async revokeByGrantId(grantId: string): Promise<void> {
      await pool.query(`DELETE FROM oidc_payloads WHERE grant_id = $1`, [grantId]);
    }
  };
}
