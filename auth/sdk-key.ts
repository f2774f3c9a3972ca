import type { Request } from 'express';
import type { OrgContext, SdkPrincipal, Services } from '../core/context.ts';
import type { ProjectRow } from '../tools/projects/record.ts';
import { AuthenticationError } from '../core/errors.ts';

/** The SDK key from `X-Project-Key`, else the `key` query parameter. */
export function sdkKeyFrom(req: Request): string | null {
  const header = req.get('x-project-key');
  if (header) return header.trim();
  const q = req.query.key;
  return typeof q === 'string' && q ? q : null;
}

/** The project an SDK key belongs to, with its org handle; 401 when the key is unknown. */
export async function projectForKey(services: Services, key: string | null): Promise<{ principal: SdkPrincipal; project: ProjectRow; org: OrgContext }> {
  if (!key) throw new AuthenticationError('An SDK key is required: send X-Project-Key (a user token is not an SDK key)', { code: 'sdk_key_required' });
  const { rows } = await services.db.pool.query<Record<string, unknown>>({
    name: 'project-for-key',
    text: `SELECT p.*, o.handle AS org__handle, o.name AS org__name, o.personal AS org__personal
             FROM projects p JOIN organizations o ON o.id = p.organization_id WHERE p.public_key = $1`,
    values: [key],
  });
  const row = rows[0];
  if (!row) throw new AuthenticationError('Unknown SDK key', { code: 'invalid_sdk_key' });
  const { org__handle, org__name, org__personal, ...fields } = row;
  const project = Object.freeze(fields) as unknown as ProjectRow;
  // The widget acts for the project, not for a member: it holds no role.
  const org: OrgContext = { id: project.organization_id, handle: org__handle as string, name: org__name as string, personal: org__personal as boolean, role: 'member' };
  return { principal: { kind: 'sdk', projectId: project.id }, project, org };
}
