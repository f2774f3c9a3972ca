import { z } from 'zod';
import { capability } from '../../core/registry.ts';
import { principalOf } from '../../core/context.ts';
import { readOnly } from '../common.ts';
import { Organization, orgRecord, orgsOf } from './record.ts';

export const listOrgs = capability({
  name: 'organizations.list',
  title: 'List organizations',
  description: 'Lists the organizations the caller belongs to, with the caller\'s role in each. The personal workspace comes first.',
  input: z.strictObject({}),
  output: z.object({ organizations: z.array(Organization) }),
  annotations: readOnly,
  scope: 'read',
  access: 'user',
  rest: { method: 'GET', path: '/api/orgs', aliases: ['/api/organizations/me'] },
  async handler(ctx) {
    const orgs = await orgsOf(ctx.services, principalOf(ctx).userId);
    return { organizations: orgs.map((o) => orgRecord(o, o.role)) };
  },
});
