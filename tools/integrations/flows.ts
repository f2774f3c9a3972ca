import { randomBytes } from 'node:crypto';
import type { Services } from '../../core/context.ts';
import { ValidationError } from '../../core/errors.ts';

type Kind = 'codehost_install' | 'tracker_connect';
export interface Flow {
  organization_id: string;
  project_id: string | null;
  user_id: string;
  verifier: string | null;
}

/** A browser round trip to a provider, remembered under its `state` for ten minutes. */
export async function beginFlow(services: Services, kind: Kind, flow: Flow): Promise<string> {
  const state = randomBytes(24).toString('base64url');
  await services.db.pool.query(
    `INSERT INTO integration_flows (state, kind, organization_id, project_id, user_id, verifier, expires_at) VALUES ($1, $2, $3, $4, $5, $6, now() + interval '10 minutes')`,
    [state, kind, flow.organization_id, flow.project_id, flow.user_id, flow.verifier],
  );
  return state;
}

/**
 * Takes the flow a callback's state names, once, for the person who began it (the callback
 * arrives in their signed-in browser); unknown, used, expired or someone else's states are refused.
 */
export async function finishFlow(services: Services, kind: Kind, state: string | undefined, userId: string): Promise<Flow> {
  const { rows } = await services.db.pool.query<Flow>(
    `DELETE FROM integration_flows WHERE state = $1 AND kind = $2 AND user_id = $3 RETURNING organization_id, project_id, user_id, verifier, expires_at > now() AS live`,
    [state ?? '', kind, userId],
  );
  const row = rows[0] as (Flow & { live: boolean }) | undefined;
  if (!row?.live) throw new ValidationError('This link expired or was already used; start again', { code: 'integration_state_invalid' });
  return row;
}
