import { z } from 'zod';
import { capability } from '../../core/registry.ts';
import { principalOf } from '../../core/context.ts';
import { newId } from '../../core/ids.ts';
import { ConflictError } from '../../core/errors.ts';
import { creates, Handle, RESERVED_HANDLES } from '../common.ts';
import { Organization, orgRecord } from './record.ts';

export const createOrg = capability({
  name: 'organizations.create',
  title: 'Create an organization',
  description:
    'Creates a team organization with the caller as its owner. ' +
    'Use it when a team needs a shared workspace beside the personal one; then add people with organizations.invite.',
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
    const { models, db } = ctx.services;
    if (RESERVED_HANDLES.has(input.handle)) throw new ConflictError(`The handle "${input.handle}" is reserved`, { code: 'handle_reserved' });
    const org = await db.sequelize.transaction(async (transaction) => {
      if (await models.Organization.findOne({ where: { handle: input.handle }, transaction })) {
        throw new ConflictError(`The handle "${input.handle}" is taken`, { code: 'handle_taken' });
      }
      const created = await models.Organization.create({ id: newId('org'), handle: input.handle, name: input.name }, { transaction });
      await models.Membership.create({ id: newId('mem'), organization_id: created.id, user_id: userId, role: 'owner' }, { transaction });
      return created;
    });
    return { organization: orgRecord(org, 'owner') };
  },
});
