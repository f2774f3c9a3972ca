import { z } from 'zod';
import { capability } from '../../core/registry.ts';
import { projectOf, type Ctx } from '../../core/context.ts';
import { readOnly } from '../common.ts';
import { Hostname, Listing, PROJECT_COUNTS, heldByAnother, listingRecord, type ListingRow } from './record.ts';
import { selectRows } from '../../core/sql.ts';

/** Host names of the project's studies' allowed origins, each with the origin to suggest (https first). */
export async function studyDomains(ctx: Ctx, projectId: string): Promise<Map<string, string>> {
  const rows = await selectRows<{ origin: string }>(
    ctx.services,
    `SELECT DISTINCT o AS origin FROM studies st CROSS JOIN LATERAL jsonb_array_elements_text(st.allowed_origins) o WHERE st.project_id = $1`,
    [projectId],
  );
  const domains = new Map<string, string>();
  for (const { origin } of rows.sort((a, b) => Number(b.origin.startsWith('https:')) - Number(a.origin.startsWith('https:')) || a.origin.localeCompare(b.origin))) {
    let url: URL;
    try {
      url = new URL(origin);
    } catch {
      continue;
    }
    if (Hostname.safeParse(url.hostname).success && !domains.has(url.hostname)) domains.set(url.hostname, `${url.origin}/`);
  }
  return domains;
}

/** Whether the organisation's billing account says it pays; false while billing is not installed. */
async function hasRealPayment(ctx: Ctx, orgId: string): Promise<boolean> {
  const [table] = await selectRows<{ present: boolean }>(ctx.services, `SELECT to_regclass('public.billing_accounts') IS NOT NULL AS present`, []);
  if (!table.present) return false;
  try {
    const [row] = await selectRows<{ paid: boolean }>(
      ctx.services,
      `SELECT EXISTS (SELECT 1 FROM billing_accounts WHERE organization_id = $1 AND payment_status = 'active') AS paid`,
      [orgId],
    );
    return row.paid;
  } catch (err) {
    ctx.log.warn('billing_accounts could not be read for has_real_payment', { error: err instanceof Error ? err.message : String(err) });
    return false;
  }
}

const Domain = z.object({
  hostname: z.string(),
  suggested_url: z.string().describe('The listing\'s destination when there is one, else the study origin'),
  interview_count: z.number().int().min(0),
  evidence_count: z.number().int().min(0),
  listing: Listing.nullable(),
  available: z.boolean().describe('False when another project holds a published or suspended listing for this hostname'),
});

export const listListings = capability({
  name: 'listings.list',
  title: 'List the project\'s public listing domains',
  description:
    'Lists the site domains this project could list on the public leaderboard (host names of its studies\' allowed_origins, plus ' +
    'any it already listed), each with the project\'s interview and evidence counts, its listing (or null) and whether it is ' +
    'available. can_manage says whether the caller may publish (org owners and admins).',
  input: z.strictObject({}),
  output: z.object({ can_manage: z.boolean(), has_real_payment: z.boolean(), domains: z.array(Domain) }),
  annotations: readOnly,
  scope: 'read',
  access: 'project',
  rest: { method: 'GET', path: 'P/public-listings' },
  async handler(ctx) {
    const { project, org } = projectOf(ctx);
    const origins = await studyDomains(ctx, project.id);
    const hostnames = [...origins.keys()];
    const listings = await selectRows<ListingRow>(
      ctx.services,
      `SELECT l.*, ${PROJECT_COUNTS('l.project_id')} FROM public_listings l WHERE l.project_id = $1 OR l.hostname = ANY($2::text[])`,
      [project.id, hostnames],
    );
    const [counts] = await selectRows<{ interview_count: number; evidence_count: number }>(ctx.services, `SELECT ${PROJECT_COUNTS('$1')}`, [project.id]);
    const byHost = new Map(listings.map((l) => [l.hostname, l]));
    const all = [...new Set([...hostnames, ...listings.filter((l) => l.project_id === project.id).map((l) => l.hostname)])].sort();
    const domains = all.map((hostname) => {
      const row = byHost.get(hostname);
      const ours = row?.project_id === project.id ? row : null;
      return {
        hostname,
        suggested_url: ours?.destination_url ?? origins.get(hostname)!,
        interview_count: counts.interview_count,
        evidence_count: counts.evidence_count,
        listing: ours ? listingRecord(ctx.services, ours) : null,
        available: !heldByAnother(row ?? null, project.id),
      };
    });
    return { can_manage: org.role === 'owner' || org.role === 'admin', has_real_payment: await hasRealPayment(ctx, org.id), domains };
  },
});
