import { z } from 'zod';
import { capability } from '../../core/registry.ts';
import { principalOf, type Ctx } from '../../core/context.ts';
import { NotFoundError } from '../../core/errors.ts';
import { updates } from '../common.ts';
import { Hostname, Listing, findListing, listingRecord, normaliseHostname } from './record.ts';
import { selectRows } from '../../core/sql.ts';

const Output = z.object({
  listing: Listing,
  suspension: z.object({ reason: z.string(), suspended_at: z.string() }).nullable(),
});

async function answer(ctx: Ctx, hostname: string) {
  const row = (await findListing(ctx.services, hostname))!;
  return {
    listing: listingRecord(ctx.services, row),
    suspension: row.status === 'suspended' ? { reason: row.suspended_reason ?? '', suspended_at: row.suspended_at!.toISOString() } : null,
  };
}

async function existing(ctx: Ctx, hostname: string) {
  const row = await findListing(ctx.services, hostname);
  if (!row) throw new NotFoundError(`No listing for ${hostname}`, { code: 'listing_not_found' });
  return row;
}

export const suspendListing = capability({
  name: 'admin.suspend_listing',
  title: 'Suspend a public listing',
  description:
    'Takes a listing off the public leaderboard for a reason (status suspended). Its project cannot publish it again, and no other ' +
    'project can claim the hostname, until an operator reinstates it. Suspending again replaces the reason. Operators only.',
  input: z.strictObject({ hostname: Hostname, reason: z.string().trim().min(1).max(500) }),
  output: Output,
  annotations: updates,
  scope: 'write',
  access: 'admin',
  mcp: false,
  rest: { method: 'POST', path: '/api/admin/public-listings/:hostname/suspend' },
  async handler(ctx, input) {
    const hostname = normaliseHostname(input.hostname);
    await existing(ctx, hostname);
    await selectRows(
      ctx.services,
      `UPDATE public_listings SET status = 'suspended', published_at = NULL, suspended_reason = $2, suspended_by = $3,
              suspended_at = CASE WHEN status = 'suspended' THEN suspended_at ELSE now() END, updated_at = now()
        WHERE hostname = $1 RETURNING hostname`,
      [hostname, input.reason, principalOf(ctx).userId],
    );
    return answer(ctx, hostname);
  },
});

export const reinstateListing = capability({
  name: 'admin.reinstate_listing',
  title: 'Reinstate a suspended public listing',
  description:
    'Lifts an operator suspension: the listing becomes unpublished and its project may publish it again. A listing that is not ' +
    'suspended is left as it is. Operators only.',
  input: z.strictObject({ hostname: Hostname }),
  output: Output,
  annotations: updates,
  scope: 'write',
  access: 'admin',
  mcp: false,
  rest: { method: 'POST', path: '/api/admin/public-listings/:hostname/reinstate' },
  async handler(ctx, input) {
    const hostname = normaliseHostname(input.hostname);
    await existing(ctx, hostname);
    await selectRows(
      ctx.services,
      `UPDATE public_listings SET status = 'unpublished', suspended_at = NULL, suspended_reason = NULL, suspended_by = NULL, updated_at = now()
        WHERE hostname = $1 AND status = 'suspended' RETURNING hostname`,
      [hostname],
    );
    return answer(ctx, hostname);
  },
});
