import { z } from 'zod';
import { capability } from '../../core/registry.ts';
import { NotFoundError } from '../../core/errors.ts';
import { Handle, iso, readOnly } from '../common.ts';
import { findingCounts } from '../findings/record.ts';
import { priorityLabel } from '../work/record.ts';
import { selectRows } from '../../core/sql.ts';
import { redactor } from './redact.ts';

/** Lists are capped so a large project stays one reasonable response; totals count everything. */
export const PUBLIC_LIMITS = { interviews: 500, evidence: 1000, findings: 200 };

const Count = z.number().int().min(0);

const PublicProject = z.object({
  project: z.object({ name: z.string(), description: z.string().nullable(), org_handle: z.string(), project_handle: z.string() }),
  totals: z.object({ studies: Count, interviews: Count, evidence: Count, findings: Count }),
  studies: z.array(z.object({ study_ref: z.string(), title: z.string(), description: z.string().nullable(), status: z.string(), goal_count: Count })),
  interviews: z.array(z.object({
    source_label: z.string(), study_ref: z.string().nullable(), completed_at: z.string().nullable(), duration_seconds: z.number().nullable(),
    analysis_summary: z.string().nullable(), evidence_count: Count,
  })),
  evidence: z.array(z.object({
    source_label: z.string(), signal_type: z.string(), quote: z.string(), headline: z.string().nullable(), claim: z.string().nullable(),
    observed_facts: z.array(z.string()), confidence: z.number(), page_title: z.string().nullable(),
  })),
  findings: z.array(z.object({
    title: z.string(), description: z.string().nullable(), status: z.string(), priority_label: z.string(), priority_score: z.number(),
    evidence_count: Count, interview_count: Count,
  })),
});

type StudyRow = { id: string; handle: string; title: string; description: string | null; status: string; goals_json: string | null };
type InterviewRow = { id: string; study_id: string | null; completed_at: Date | null; duration_seconds: number | null; summary: string | null; evidence_count: number };
type SignalRow = { interview_id: string; signal_type: string; quote: string; headline: string | null; claim: string | null; observed_facts_json: string | null; confidence: number; page_title: string | null };
type FindingRow = { id: string; title: string; description: string | null; research_state: string; priority_score: number };

function goalCount(goals: string | null): number {
  try {
    const parsed = goals ? JSON.parse(goals) : [];
    return Array.isArray(parsed) ? parsed.length : 0;
  } catch {
    return 0;
  }
}

function facts(json: string | null): string[] {
  try {
    const parsed = json ? JSON.parse(json) : [];
    return Array.isArray(parsed) ? parsed.filter((f): f is string => typeof f === 'string') : [];
  } catch {
    return [];
  }
}

export const publicProject = capability({
  name: 'public.get_project',
  title: 'Read a public project',
  description:
    'The public view of a project whose owners turned publication on: its studies (drafts excepted), completed interviews labelled ' +
    '"Participant N" in the order they were recorded, their evidence (dismissed cards excepted) and findings. Participant names and ' +
    'e-mail addresses never appear: where the text mentions them they read [participant] and [email]. Public; 404 while publication is off.',
  input: z.strictObject({ orgHandle: Handle, projectHandle: Handle }),
  output: PublicProject,
  annotations: readOnly,
  scope: 'read',
  access: 'public',
  mcp: false,
  rest: { method: 'GET', path: '/api/public/orgs/:orgHandle/projects/:projectHandle' },
  async handler(ctx, { orgHandle, projectHandle }) {
    const { services } = ctx;
    const [project] = await selectRows<{ id: string; name: string; description: string | null }>(
      services,
      `SELECT p.id, p.name, p.description FROM projects p
         JOIN organizations o ON o.id = p.organization_id
         JOIN project_publications pub ON pub.project_id = p.id AND pub.enabled
        WHERE o.handle = $1 AND p.handle = $2`,
      [orgHandle, projectHandle],
    );
    if (!project) throw new NotFoundError('Project not found');
    const [studies, interviews, signals, [evidenceTotal], findings, [findingTotal], people] = await Promise.all([
      services.db.pool.query<StudyRow>(`SELECT id, handle, title, description, status, goals_json FROM studies WHERE project_id = $1 AND status <> 'draft' ORDER BY created_at, id`, [project.id]).then((r) => r.rows),
      selectRows<InterviewRow>(
        services,
        `SELECT i.id, i.study_id, coalesce(i.ended_at, i.created_at) AS completed_at, i.duration_seconds, i.summary,
                (SELECT count(*)::int FROM signals s WHERE s.interview_id = i.id AND s.dismissed_at IS NULL) AS evidence_count
           FROM interviews i WHERE i.project_id = $1 AND i.status = 'completed' ORDER BY i.created_at, i.id`,
        [project.id],
      ),
      selectRows<SignalRow>(
        services,
        `SELECT s.interview_id, s.signal_type, s.quote, s.headline, s.claim, s.observed_facts_json, s.confidence, s.page_title
           FROM signals s JOIN interviews i ON i.id = s.interview_id AND i.status = 'completed'
          WHERE s.project_id = $1 AND s.dismissed_at IS NULL
          ORDER BY i.created_at, i.id, s.timestamp_ms NULLS LAST, s.id LIMIT ${PUBLIC_LIMITS.evidence}`,
        [project.id],
      ),
      selectRows<{ n: number }>(
        services,
        `SELECT count(*)::int AS n FROM signals s JOIN interviews i ON i.id = s.interview_id AND i.status = 'completed' WHERE s.project_id = $1 AND s.dismissed_at IS NULL`,
        [project.id],
      ),
      selectRows<FindingRow>(
        services,
        `SELECT id, title, description, research_state, priority_score FROM findings WHERE project_id = $1 ORDER BY priority_score DESC, created_at, id LIMIT ${PUBLIC_LIMITS.findings}`,
        [project.id],
      ),
      selectRows<{ n: number }>(services, `SELECT count(*)::int AS n FROM findings WHERE project_id = $1`, [project.id]),
      selectRows<{ name: string | null; email: string | null }>(
        services,
        `SELECT participant_name AS name, participant_email AS email FROM interviews WHERE project_id = $1
         UNION SELECT r.participant_name, r.participant_email FROM intake_responses r JOIN intakes k ON k.id = r.intake_id WHERE k.project_id = $1`,
        [project.id],
      ),
    ]);
    const clean = redactor(people);
    const cleanOrNull = (text: string | null) => (text === null ? null : clean(text));
    const label = new Map(interviews.map((i, n) => [i.id, `Participant ${n + 1}`]));
    const studyHandle = new Map(studies.map((s) => [s.id, s.handle]));
    const counts = await findingCounts(ctx, findings.map((f) => f.id));
    return {
      project: { name: project.name, description: project.description, org_handle: orgHandle, project_handle: projectHandle },
      totals: { studies: studies.length, interviews: interviews.length, evidence: evidenceTotal.n, findings: findingTotal.n },
      studies: studies.map((s) => ({ study_ref: s.handle, title: clean(s.title), description: cleanOrNull(s.description), status: s.status, goal_count: goalCount(s.goals_json) })),
      interviews: interviews.slice(0, PUBLIC_LIMITS.interviews).map((i) => ({
        source_label: label.get(i.id)!,
        study_ref: (i.study_id && studyHandle.get(i.study_id)) ?? null,
        completed_at: iso(i.completed_at),
        duration_seconds: i.duration_seconds,
        analysis_summary: cleanOrNull(i.summary),
        evidence_count: i.evidence_count,
      })),
      evidence: signals.map((s) => ({
        source_label: label.get(s.interview_id)!,
        signal_type: s.signal_type,
        quote: clean(s.quote),
        headline: cleanOrNull(s.headline),
        claim: cleanOrNull(s.claim),
        observed_facts: facts(s.observed_facts_json).map(clean),
        confidence: s.confidence,
        page_title: cleanOrNull(s.page_title),
      })),
      findings: findings.map((f) => ({
        title: clean(f.title),
        description: cleanOrNull(f.description),
        status: f.research_state,
        priority_label: priorityLabel(f.priority_score),
        priority_score: f.priority_score,
        evidence_count: counts.get(f.id)?.evidence ?? 0,
        interview_count: counts.get(f.id)?.interviews ?? 0,
      })),
    };
  },
});
