import { z } from 'zod';

const hex = z.string().regex(/^#[0-9A-Fa-f]{6}$/, 'must be a #RRGGBB hex colour');
const text = (min: number, max: number) => z.string().min(min, `must be at least ${min} character${min > 1 ? 's' : ''}`).max(max, `must be at most ${max} characters`);

/** SPEC 2.9.1: the invitation a widget shows. No extra properties at any level. */
export const Invitation = z
  .strictObject({
    launcher: z.strictObject({
      label: text(1, 80),
      icon: z.enum(['feedback', 'mic', 'diagram', 'bug', 'research']),
      style: z.enum(['calm', 'lattice', 'beam', 'ticket']).optional(),
      shape: z.enum(['capsule', 'rounded', 'square']).optional(),
    }),
    panel: z
      .strictObject({
        eyebrow: text(1, 80).optional(),
        headline: text(1, 120),
        body: text(1, 600).optional(),
        duration_minutes: z.number().int('must be an integer').min(1).max(240).optional(),
        reward: z
          .strictObject({
            kind: z.enum(['gift', 'product', 'community', 'access']),
            label: text(1, 160),
            eligibility: text(1, 240).optional(),
            delivery: text(1, 240).optional(),
          })
          .optional(),
        cta: text(1, 80),
        image: z
          .strictObject({
            asset_id: text(1, 160),
            url: z.url('must be a URL').max(2000, 'must be at most 2000 characters'),
            alt: z.string().max(160, 'must be at most 160 characters'),
          })
          .optional(),
      })
      .optional(),
    presentation_mode: z.enum(['passive', 'contextual', 'direct_link']),
    brand_color: z.strictObject({ light: hex, dark: hex.optional() }),
    foreground_color: hex.optional(),
    placement: z.strictObject({
      desktop: z.enum(['bottom-left', 'bottom-right']),
      mobile: z.enum(['bottom-left', 'bottom-right']),
    }),
  })
  .meta({ id: 'StudyInvitation' });
export type InvitationT = z.output<typeof Invitation>;

/** Why a rule pathname is unacceptable (SPEC 2.9.2), or null. */
export function pathnameProblem(p: string): string | null {
  if (p.length < 1 || p.length > 2000) return 'must be 1-2000 characters';
  if (!p.startsWith('/')) return 'must start with /';
  if (p.includes('//')) return 'must not contain //';
  if (/[?#\\]/.test(p)) return 'must not contain ?, # or a backslash';
  if (!/^[\x20-\x7e]*$/.test(p)) return 'must be printable ASCII';
  if (/["<>^`{}]/.test(p)) return 'must not contain any of " < > ^ ` { }';
  const segments = p.split('/').slice(1);
  for (const seg of segments) {
    const decoded = seg.replace(/%2e/gi, '.');
    if (decoded === '.' || decoded === '..') return 'must not contain . or .. segments (percent-encoded included)';
  }
  if (p.length > 1 && p.endsWith('/')) return 'must not end with / (except the root /)';
  return null;
}

export const Pathname = z.string().superRefine((p, ctx) => {
  const problem = pathnameProblem(p);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

export const VisibilityRule = z.strictObject({
  effect: z.enum(['include', 'exclude']),
  match: z.enum(['exact', 'subtree']),
  pathname: Pathname,
});

export const Language = z.string().regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/, 'must be a language tag such as en or pt-BR').max(35);

/** SPEC 2.9.2: which pages and languages a study is offered on. */
export const Visibility = z
  .strictObject({
    version: z.literal(1),
    enabled: z.boolean(),
    rules: z.array(VisibilityRule).max(100, 'must have at most 100 rules').default([]),
    languages: z.array(Language).max(20, 'must have at most 20 languages').default([]),
    priority: z.number().int('must be an integer').min(-1_000_000).max(1_000_000).default(0),
    order: z.number().int('must be an integer').min(0).max(1_000_000).default(0),
  })
  .meta({ id: 'StudyVisibility' });
export type VisibilityT = z.output<typeof Visibility>;

export const Goal = z.strictObject({ id: text(1, 64), description: text(1, 500) });

/** Script segments as stored. studies.validate_script reviews looser input and explains. */
export const Segment = z.strictObject({
  id: text(1, 64),
  mode: z.enum(['speak', 'observe', 'talk']),
  title: text(1, 200),
  speak_text: text(1, 4000).optional(),
  instruction: text(1, 4000).optional(),
  conductor_context: text(1, 4000).optional(),
});

/** Most goals and segments a script may have. */
export const MAX_GOALS = 50;
export const MAX_SEGMENTS = 200;

export const Script = z
  .strictObject({
    version: z.literal(2),
    goals: z.array(Goal).max(MAX_GOALS).default([]),
    segments: z.array(Segment).max(MAX_SEGMENTS),
  })
  .meta({ id: 'StudyScript' });
export type ScriptT = z.output<typeof Script>;

export const Origin = z
  .string()
  .max(300)
  .superRefine((value, ctx) => {
    let url: URL | null = null;
    try {
      url = new URL(value);
    } catch {
      /* reported below */
    }
    if (!url || !/^https?:$/.test(url.protocol) || url.origin !== value) {
      ctx.addIssue({ code: 'custom', message: 'must be an origin such as https://app.example.com (scheme, host, optional port; no path or trailing slash)' });
    }
  });

export const Selector = text(1, 200);
export const StudyStatus = z.enum(['draft', 'active', 'paused', 'closed']);
export type StudyStatusT = z.output<typeof StudyStatus>;

export const StudySettings = z
  .record(z.string().max(64), z.union([z.string().max(2000), z.number(), z.boolean(), z.null()]))
  .refine((r) => Object.keys(r).length <= 50, 'must have at most 50 entries')
  .describe('Free-form study settings, e.g. { "interview_mode": "voice", "language": "en" }');
