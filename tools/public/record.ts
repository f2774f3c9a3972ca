import { z } from 'zod';
import type { Sql } from '../../core/tx.ts';
import { selectRows } from '../../core/sql.ts';
import type { Services } from '../../core/context.ts';
import { Timestamp, iso, isoRequired } from '../common.ts';

export const LISTING_STATUSES = ['published', 'unpublished', 'suspended'] as const;

export const Hostname = z
  .string()
  .max(253)
  .regex(/^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/i, 'must be a host name such as www.example.com')
  .describe('Host name of the site, e.g. www.example.com');

export const ListingTitle = z.string().trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters');
export const ListingDescription = z.string().trim().min(1, 'must not be empty').max(280, 'must be at most 280 characters');

const listingFields = {
  hostname: z.string(),
  destination_url: z.string().describe('Where the listing links to, on its hostname'),
  title: z.string(),
  description: z.string(),
  interview_count: z.number().int().min(0).describe('Completed interviews of the whole project'),
  evidence_count: z.number().int().min(0).describe('Evidence cards of the whole project, dismissed ones excepted'),
  icon_url: z.string().nullable().default(null).describe('The site\'s icon as stored at publish time, or null'),
  published_at: z.string().nullable(),
  updated_at: Timestamp,
};

export const Listing = z.object({ ...listingFields, status: z.enum(LISTING_STATUSES) }).meta({ id: 'PublicListing' });
export const LeaderboardEntry = z.object({ ...listingFields, rank: z.number().int().min(1) }).meta({ id: 'LeaderboardEntry' });
export type ListingRecord = z.input<typeof Listing>;

export interface ListingRow {
  hostname: string;
  project_id: string;
  destination_url: string;
  title: string;
  description: string;
  status: (typeof LISTING_STATUSES)[number];
  icon_key: string | null;
  icon_file: string | null;
  icon_content_type: string | null;
  published_at: Date | null;
  suspended_at: Date | null;
  suspended_reason: string | null;
  updated_at: Date;
  interview_count: number;
  evidence_count: number;
}

/** Counts are of the whole project, live: completed interviews and evidence that is not dismissed. */
export const PROJECT_COUNTS = (project: string) => `
  (SELECT count(*)::int FROM interviews i WHERE i.project_id = ${project} AND i.status = 'completed') AS interview_count,
  (SELECT count(*)::int FROM signals s WHERE s.project_id = ${project} AND s.dismissed_at IS NULL) AS evidence_count`;

export const iconUrl = (services: Services, row: Pick<ListingRow, 'hostname' | 'icon_file'>) =>
  row.icon_file ? `${services.baseUrl()}/api/public/leaderboard/icons/${row.hostname}/${row.icon_file}` : null;

export function listingRecord(services: Services, row: ListingRow): ListingRecord {
  return {
    hostname: row.hostname,
    destination_url: row.destination_url,
    title: row.title,
    description: row.description,
    status: row.status,
    interview_count: row.interview_count,
    evidence_count: row.evidence_count,
    icon_url: iconUrl(services, row),
    published_at: iso(row.published_at),
    updated_at: isoRequired(row.updated_at),
  };
}

/** `lock` takes the row for update inside the caller's transaction (`sql`). */
export async function findListing(services: Services, hostname: string, sql?: Sql, lock = false): Promise<ListingRow | null> {
  const [row] = await selectRows<ListingRow>(
    services,
    `SELECT l.*, ${PROJECT_COUNTS('l.project_id')} FROM public_listings l WHERE l.hostname = $1${lock ? ' FOR UPDATE OF l' : ''}`,
    [hostname],
    sql,
  );
  return row ?? null;
}

export const normaliseHostname = (h: string) => h.toLowerCase();

/** An unpublished listing lets the hostname go; a published or suspended one keeps it for its project. */
export const heldByAnother = (row: Pick<ListingRow, 'project_id' | 'status'> | null, projectId: string) =>
  row !== null && row.project_id !== projectId && row.status !== 'unpublished';
