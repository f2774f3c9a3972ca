import { z } from 'zod';
import { capability } from '../../core/registry.ts';
import { projectOf } from '../../core/context.ts';
import { ConflictError, DomainError, ValidationError } from '../../core/errors.ts';
import { updates } from '../common.ts';
import { studyDomains } from './domains.ts';
import { fetchIcon } from './icon.ts';
import { embedsProjectWidget } from '../projects/widget-embed.ts';
import { Hostname, Listing, ListingDescription, ListingTitle, findListing, heldByAnother, listingRecord, normaliseHostname, type ListingRow } from './record.ts';
import { selectRows } from '../../core/sql.ts';
import { inTransaction } from '../../core/tx.ts';

/** Whether this project may (re)publish the listing row it found for the hostname. */
export function checkHold(row: ListingRow | null, projectId: string): void {
  if (heldByAnother(row, projectId)) {
    throw new ConflictError(`${row!.hostname} is listed by another project`, { code: 'hostname_taken', action: 'Choose another hostname' });
  }
  if (row?.status === 'suspended') {
    throw new DomainError(`The listing for ${row.hostname} was suspended by an operator${row.suspended_reason ? `: ${row.suspended_reason}` : ''}`, {
      code: 'listing_suspended',
      action: 'Contact the operators of this service to have it reinstated',
    });
  }
}

export const publishListing = capability({
  name: 'listings.publish',
  title: 'Publish a public listing',
  description:
    'Publishes (or updates) the project\'s listing for one of its site domains on the public leaderboard: destination_url (on that ' +
    'hostname), title (1-100 characters) and description (1-280). The hostname must be one of the domains listings.list returns. ' +
    'The site must run the project\'s widget (on the destination page or its home page), which proves the project controls it: 422 domain_not_verified otherwise. ' +
    'The site\'s icon is fetched and stored once per publish. 409 hostname_taken when another project lists the hostname; ' +
    '422 listing_suspended when an operator suspended it. Org owners and admins only.',
  input: z.strictObject({
    hostname: Hostname,
    destination_url: z.url({ protocol: /^https?$/ }).max(2000).describe('Where the listing links to; must be on the hostname'),
    title: ListingTitle,
    description: ListingDescription,
  }),
  output: z.object({ listing: Listing }),
  annotations: { ...updates, openWorldHint: true },
  scope: 'write',
  access: 'project',
  rateLimit: 60,
  roles: ['owner', 'admin'],
  rest: { method: 'PUT', path: 'P/public-listings/:hostname' },
  async handler(ctx, input) {
    const { project } = projectOf(ctx);
    const { services } = ctx;
    const hostname = normaliseHostname(input.hostname);
    const destination = new URL(input.destination_url);
    if (destination.hostname !== hostname) throw new ValidationError(`destination_url: must be on ${hostname}`, { code: 'destination_not_on_hostname' });
    const existing = await findListing(services, hostname);
    if (existing?.project_id !== project.id && !(await studyDomains(ctx, project.id)).has(hostname)) {
      throw new DomainError(`${hostname} is not a domain of this project`, {
        code: 'hostname_not_a_project_domain',
        action: `Add the site's origin (e.g. https://${hostname}) to a study's allowed_origins first`,
      });
    }
    checkHold(existing, project.id);
    // Proof of control: the site runs this project's widget (the destination page or the site's home page).
    const home = `${destination.origin}/`;
    if (!(await embedsProjectWidget(ctx, destination.toString())) && (home === destination.toString() || !(await embedsProjectWidget(ctx, home)))) {
      throw new DomainError(`${hostname} does not run this project's widget, so it cannot be listed for it`, {
        code: 'domain_not_verified',
        action: `Embed the widget snippet (GET P/widget-setup) on ${destination.toString()} or ${home}, then publish again`,
      });
    }
    const icon = await fetchIcon(services, hostname, destination.toString());
    await inTransaction(services.db.pool, async (sql) => {
      await selectRows(services, `SELECT pg_advisory_xact_lock(hashtext('public_listing:' || $1))`, [hostname], sql);
      checkHold(await findListing(services, hostname, sql, true), project.id);
      await selectRows(
        services,
        `INSERT INTO public_listings AS l (hostname, project_id, destination_url, title, description, status, icon_key, icon_file, icon_content_type, published_at)
         VALUES ($1, $2, $3, $4, $5, 'published', $6, $7, $8, now())
         ON CONFLICT (hostname) DO UPDATE SET
           project_id = EXCLUDED.project_id, destination_url = EXCLUDED.destination_url, title = EXCLUDED.title, description = EXCLUDED.description,
           status = 'published',
           published_at = CASE WHEN l.status = 'published' AND l.project_id = EXCLUDED.project_id THEN l.published_at ELSE now() END,
           icon_key = CASE WHEN $6::text IS NULL AND l.project_id = EXCLUDED.project_id THEN l.icon_key ELSE $6 END,
           icon_file = CASE WHEN $6::text IS NULL AND l.project_id = EXCLUDED.project_id THEN l.icon_file ELSE $7 END,
           icon_content_type = CASE WHEN $6::text IS NULL AND l.project_id = EXCLUDED.project_id THEN l.icon_content_type ELSE $8 END,
           suspended_at = NULL, suspended_reason = NULL, suspended_by = NULL, updated_at = now()
         RETURNING hostname`,
        [hostname, project.id, destination.toString(), input.title, input.description, icon?.key ?? null, icon?.file ?? null, icon?.contentType ?? null],
        sql,
      );
    });
    return { listing: listingRecord(services, (await findListing(services, hostname))!) };
  },
});
