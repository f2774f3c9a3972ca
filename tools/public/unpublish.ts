import { z } from 'zod';
import { capability } from '../../core/registry.ts';
import { projectOf } from '../../core/context.ts';
import { NotFoundError } from '../../core/errors.ts';
import { updates } from '../common.ts';
import { checkHold } from './publish.ts';
import { Hostname, Listing, findListing, listingRecord, normaliseHostname } from './record.ts';
import { selectRows } from '../../core/sql.ts';
import { inTransaction } from '../../core/tx.ts';

export const unpublishListing = capability({
  name: 'listings.unpublish',
  title: 'Unpublish a public listing',
  description:
    'Takes the project\'s listing for a hostname off the public leaderboard (status unpublished). It can be published again with ' +
    'listings.publish; while unpublished, another project may claim the hostname. Org owners and admins only.',
  input: z.strictObject({ hostname: Hostname }),
  output: z.object({ listing: Listing }),
  annotations: updates,
  scope: 'write',
  access: 'project',
  roles: ['owner', 'admin'],
  rest: { method: 'POST', path: 'P/public-listings/:hostname/unpublish' },
  async handler(ctx, input) {
    const { project } = projectOf(ctx);
    const { services } = ctx;
    const hostname = normaliseHostname(input.hostname);
    await inTransaction(services.db.pool, async (sql) => {
      const row = await findListing(services, hostname, sql, true);
      if (!row || row.project_id !== project.id) throw new NotFoundError(`This project has no listing for ${hostname}`, { code: 'listing_not_found' });
      checkHold(row, project.id);
      await selectRows(services, `UPDATE public_listings SET status = 'unpublished', published_at = NULL, updated_at = now() WHERE hostname = $1 RETURNING hostname`, [hostname], sql);
    });
    return { listing: listingRecord(services, (await findListing(services, hostname))!) };
  },
});
