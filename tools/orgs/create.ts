import { z } from 'zod';
import { capability } from '../../core/registry.ts';
import { principalOf } from '../../core/context.ts';
import { newId } from '../../core/ids.ts';
import { ConflictError } from '../../core/errors.ts';
import { creates, Handle, RESERVED_HANDLES } from '../common.ts';
import { Organization, orgRecord } from './record.ts';
import { memberships, organizations } from './rows.ts';
import { inTransaction } from '../../core/tx.ts';

export const createOrg = capability({
  name: 'organizations.create',
  title: 'Create an organization',
  description:
    'Creates a team organization with the caller as its owner. ' +
    'Use it when a team needs a shared workspace beside the personal one; then add people with organizations.add_member.',
  input: z.strictObject({
    handle: Handle,
    name: z.string().trim().min(1).max(120),
  }),
  output: z.object({ organization: Organization }),
  annotations: creates,
  scope: 'write',
  access: 'user',
  rest: { method: 'POST', path: '/api/orgs', status: 201, aliases: ['/api/organizations'] },
  async handler(ctx, input) {
    const userId = principalOf(ctx).userId;
    if (RESERVED_HANDLES.has(input.handle)) throw new ConflictError(`The handle "${input.handle}" is reserved`, { code: 'handle_reserved' });
    const org = await inTransaction(ctx.services.db.pool, async (sql) => {
      if ((await sql.query(`SELECT 1 FROM organizations WHERE handle = $1 LIMIT 1`, [input.handle])).rowCount) {
        throw new ConflictError(`The handle "${input.handle}" is taken`, { code: 'handle_taken' });
      }
      const created = await organizations.insert(sql, { id: newId('org'), handle: input.handle, name: input.name, personal: false });
      await memberships.insert(sql, { id: newId('mem'), organization_id: created.id, user_id: userId, role: 'owner' });
      return created;
    });
    return { organization: orgRecord(org, 'owner') };
  },
});
