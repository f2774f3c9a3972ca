import { table } from '../../core/table.ts';
import type { MembershipAttrs, OrganizationAttrs } from '../../models/index.ts';

/** An `organizations` row as `pg` reads it. */
export type OrgRow = OrganizationAttrs;
/** A `memberships` row as `pg` reads it. */
export type MembershipRow = MembershipAttrs;

export const organizations = table<OrgRow>()('organizations', ['id', 'handle', 'name', 'personal', 'created_at', 'updated_at']);
export const memberships = table<MembershipRow>()('memberships', ['id', 'organization_id', 'user_id', 'role', 'created_at', 'updated_at']);
