import { z } from 'zod';
import type { Ctx } from '../../core/context.ts';
import { projectOf } from '../../core/context.ts';
import { capability } from '../../core/registry.ts';
import { readOnly } from '../common.ts';
import { StudyIdParam, findStudy } from './record.ts';
import { servesGoal } from './serves.ts';
import { questionPlan } from '../conductor/questions.ts';

/** Word similarity (pg_trgm) from which evidence counts as addressing a goal. */
const ADDRESSES = 0.25;
/** Word similarity from which the interviewer's question before a card is taken for a script segment's. */
const ASKED_IN = 0.5;

const GoalCoverage = z.object({ study_ref: z.string(), study_handle: z.string(), goal_id: z.string(), description: z.string(), evidence_count: z.number().int() });

type StudyScript = { id: string; goals_json: string | null; script_json: string | null };
type Segment = { id: string; mode?: string; title?: string; instruction?: string; speak_text?: string };

const segmentsOf = (study: StudyScript) => ((study.script_json ? JSON.parse(study.script_json) : null)?.segments ?? []) as Segment[];

/** For each goal of a study, the ids of the script segments that serve it. */
function servingSegments(study: StudyScript): Record<string, string[]> {
  const goals = (study.goals_json ? JSON.parse(study.goals_json) : []) as Array<{ id: string }>;
  const segments = segmentsOf(study);
  return Object.fromEntries(goals.map((g) => [g.id, segments.filter((s) => servesGoal(s, g.id)).map((s) => s.id)]));
}

/** What an interviewer following each talk or observe segment would ask: its questions as the built-in conductor words them, and the guide's own words. */
function askedIn(study: StudyScript): Array<{ id: string; text: string }> {
  return segmentsOf(study)
    .filter((s) => (s.mode === 'talk' || s.mode === 'observe') && typeof s.id === 'string')
    .map((s) => {
      let planned: string[] = [];
      try {
        planned = questionPlan({ mode: s.mode as string, title: s.title ?? '', instruction: s.instruction }).questions;
      } catch {
        planned = [];
      }
      return { id: s.id, text: [s.speak_text, s.instruction, ...planned].filter((t) => typeof t === 'string').join('\n') };
    });
}

/**
 * How much evidence addresses each goal of the project's open studies: evidence from the
 * study's own interviews that came from a script segment serving the goal; a card with no
 * script segment (an imported transcript) when its quote, headline or claim shares enough
 * words with the goal. Word similarity is not asked of a card whose segment says where it
 * belongs: across a study's cards it sits near the threshold and counted nearly all of them.
 * Each card counts once per goal.
 *
 * A conductor interview's transcript is its messages, one line each, so a card's script
 * segment is that of the participant's message at the start of the card's transcript line.
 * An imported interview has no messages: its card belongs to the segment whose questions the
 * interviewer's last line before it most resembles, when one does (a team that ran its own guide).
 */
export async function goalCoverage(ctx: Ctx, studyId?: string): Promise<Array<z.input<typeof GoalCoverage>>> {
  const { project } = projectOf(ctx);
  const pool = ctx.services.db.pool;
  const { rows: studies } = await pool.query<StudyScript>(
    `SELECT id, goals_json, script_json FROM studies WHERE project_id = $1 AND status <> 'closed' AND ($2::text IS NULL OR id = $2)`,
    [project.id, studyId ?? null],
  );
  const served = Object.fromEntries(studies.map((st) => [st.id, servingSegments(st)]));
  const asked = Object.fromEntries(studies.map((st) => [st.id, askedIn(st)]));
  const { rows } = await pool.query<z.input<typeof GoalCoverage>>(
    `WITH cards AS (
       SELECT i.study_id, s.quote, coalesce(s.headline, '') || ' ' || coalesce(s.claim, '') AS summary,
              (SELECT m.segment_id FROM transcript_segments t JOIN interview_messages m ON m.interview_id = t.interview_id
                WHERE t.id = s.segment_id AND m.role = 'participant' AND m.timestamp_ms < t.start_ms + 0.5
                ORDER BY m.timestamp_ms DESC, m.id DESC LIMIT 1) AS script_segment,
              (SELECT q.text FROM transcript_segments t JOIN transcript_segments q ON q.interview_id = t.interview_id
                WHERE t.id = s.segment_id AND q.role = 'interviewer' AND q.idx < t.idx
                ORDER BY q.idx DESC LIMIT 1) AS asked
         FROM signals s JOIN interviews i ON i.id = s.interview_id
        WHERE s.project_id = $1 AND s.dismissed_at IS NULL AND i.study_id IS NOT NULL AND ($3::text IS NULL OR i.study_id = $3)
     ), placed AS (
       SELECT c.study_id, c.quote, c.summary,
              coalesce(c.script_segment, (SELECT e->>'id' FROM jsonb_array_elements($5::jsonb -> c.study_id) e
                                           WHERE c.asked IS NOT NULL AND word_similarity(c.asked, e->>'text') >= $6
                                           ORDER BY word_similarity(c.asked, e->>'text') DESC, e->>'id' LIMIT 1)) AS script_segment
         FROM cards c
     )
     SELECT st.id AS study_ref, st.handle AS study_handle, g->>'id' AS goal_id, g->>'description' AS description,
            (SELECT count(*)::int FROM placed c
              WHERE c.study_id = st.id
                AND CASE WHEN c.script_segment IS NOT NULL
                         THEN c.script_segment IN (SELECT jsonb_array_elements_text($4::jsonb -> st.id -> (g->>'id')))
                         ELSE greatest(word_similarity(g->>'description', c.quote), word_similarity(g->>'description', c.summary)) >= $2 END
            ) AS evidence_count
       FROM studies st CROSS JOIN LATERAL jsonb_array_elements(coalesce(st.goals_json, '[]')::jsonb) g
      WHERE st.project_id = $1 AND st.status <> 'closed' AND ($3::text IS NULL OR st.id = $3)
      ORDER BY st.created_at, g->>'id'`,
    [project.id, ADDRESSES, studyId ?? null, JSON.stringify(served), JSON.stringify(asked), ASKED_IN],
  );
  return rows;
}

export const coverageGaps = capability({
  name: 'studies.coverage_gaps',
  title: 'Study goals without evidence',
  description:
    'Lists goals of open studies that no evidence addresses yet, with totals — a guide to what the next interviews should explore. ' +
    'Use it when planning what to ask next or deciding whether a study has done its job.',
  input: z.strictObject({}),
  output: z.object({
    gaps: z.array(GoalCoverage),
    totals: z.object({ studies: z.number().int(), goals: z.number().int(), addressed: z.number().int(), gaps: z.number().int() }),
  }),
  annotations: readOnly,
  scope: 'read',
  access: 'project',
  rest: { method: 'GET', path: 'P/coverage-gaps' },
  async handler(ctx) {
    const all = await goalCoverage(ctx);
    const gaps = all.filter((g) => g.evidence_count === 0);
    return { gaps, totals: { studies: new Set(all.map((g) => g.study_ref)).size, goals: all.length, addressed: all.length - gaps.length, gaps: gaps.length } };
  },
});

export const studyResults = capability({
  name: 'studies.get_results',
  title: 'Results of a study',
  description:
    'What a study has produced so far: interviews by processing state, evidence by type, findings citing its evidence, and goal coverage. ' +
    'Use it to judge how far a study has got and what is left to learn.',
  input: z.strictObject({ studyId: StudyIdParam }),
  output: z.object({
    study_ref: z.string(),
    interviews: z.object({ total: z.number().int(), processed: z.number().int(), processing: z.number().int(), failed: z.number().int() }),
    evidence: z.object({ total: z.number().int(), by_type: z.record(z.string(), z.number().int()) }),
    findings: z.array(z.object({ finding_ref: z.string(), title: z.string(), research_state: z.string(), evidence_count: z.number().int() })),
    goals: z.array(GoalCoverage),
  }),
  annotations: readOnly,
  scope: 'read',
  access: 'project',
  rest: { method: 'GET', path: 'P/studies/:studyId/results' },
  async handler(ctx, input) {
    const study = await findStudy(ctx, input.studyId);
    const pool = ctx.services.db.pool;
    const [interviews, evidence, findings, goals] = await Promise.all([
      pool.query(
        `SELECT count(*)::int AS total, count(*) FILTER (WHERE processing_status = 'processed')::int AS processed,
                count(*) FILTER (WHERE processing_status IN ('pending', 'processing'))::int AS processing,
                count(*) FILTER (WHERE processing_status = 'failed')::int AS failed
           FROM interviews WHERE study_id = $1`,
        [study.id],
      ),
      pool.query(`SELECT s.signal_type, count(*)::int AS n FROM signals s JOIN interviews i ON i.id = s.interview_id WHERE i.study_id = $1 AND s.dismissed_at IS NULL GROUP BY 1`, [study.id]),
      pool.query(
        `SELECT f.id AS finding_ref, f.title, f.research_state, count(*)::int AS evidence_count
           FROM findings f JOIN finding_evidence fe ON fe.finding_id = f.id JOIN signals s ON s.id = fe.signal_id JOIN interviews i ON i.id = s.interview_id
          WHERE i.study_id = $1 GROUP BY f.id ORDER BY f.priority_score DESC`,
        [study.id],
      ),
      goalCoverage(ctx, study.id),
    ]);
    const byType = Object.fromEntries(evidence.rows.map((r) => [r.signal_type, r.n]));
    return {
      study_ref: study.id,
      interviews: interviews.rows[0],
      evidence: { total: Object.values(byType).reduce((a: number, b) => a + (b as number), 0), by_type: byType },
      findings: findings.rows,
      goals,
    };
  },
});
