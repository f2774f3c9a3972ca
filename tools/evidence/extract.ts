import type { Services } from '../../core/context.ts';
import type { InterviewRow, SignalAttrs } from '../../models/index.ts';
import { newId } from '../../core/ids.ts';
import type { Sql } from '../../core/tx.ts';
import { modelAccess, recordKeyUse } from '../interviews/model-access.ts';
import { LocalExtractor } from './local-extractor.ts';
import { LlmExtractor } from './llm-extractor.ts';
import { locate } from './locate.ts';
import { withPageContext } from './page-context.ts';
import { withScreenContext } from './screen-context.ts';
import type { Extractor, Turn } from './types.ts';
import type { StepWork } from '../interviews/steps.ts';
import { notEnglish } from '../../core/language.ts';

export type NewSignal = Omit<SignalAttrs, 'created_at' | 'updated_at' | 'annotation_text' | 'annotation_by' | 'annotation_at' | 'dismissed_at' | 'dismissed_reason' | 'dismissed_by' | 'review_status' | 'review_note' | 'reviewed_by' | 'reviewed_at' | 'created_by'>;

export async function turnsOf(sql: Sql, interviewId: string): Promise<Turn[]> {
  const { rows } = await sql.query<Turn>({
    name: 'transcript_turns',
    text: `SELECT id AS segment_id, idx, role, speaker, start_ms, end_ms, text FROM transcript_segments WHERE interview_id = $1 ORDER BY idx`,
    values: [interviewId],
  });
  return rows;
}

/** "At 1:55 in the interview", said of a time estimated from the transcript's length. */
const roughly = (fact: string) => fact.replace(/^At (\d+:\d{2}(?::\d{2})?) in the interview$/, 'At about $1 in the interview (estimated: the transcript has no times)');

/** The start of what participants said: enough to tell the language of a transcript. */
const participantSample = (turns: Turn[]) => turns.filter((t) => t.role !== 'interviewer').map((t) => t.text).join(' ').slice(0, 4000);

/**
 * Runs the extractor this project may use (its model when a key is configured, else the
 * local one) and turns proposals into evidence rows. A quote that cannot be found in the
 * transcript is dropped; a close paraphrase is kept only marked transcript_uncertain.
 */
export async function extractEvidence(services: Services, interview: InterviewRow, warn?: StepWork['warn']): Promise<NewSignal[]> {
  const turns = await turnsOf(services.db.pool, interview.id);
  if (!turns.length) return [];
  const { llm, keyProblem } = await modelAccess(services, interview.project_id);
  if (keyProblem && warn) {
    const instead = llm ? "the operator's model (LLM_API_KEY)" : 'the built-in local extractor';
    await warn({ code: keyProblem.code, message: `${keyProblem.message}; evidence was extracted by ${instead} instead of the project's model`, action: keyProblem.action });
  }
  const extractor: Extractor = llm ? new LlmExtractor(llm) : new LocalExtractor();
  const goals = interview.study_id ? (await services.db.pool.query<{ goals_json: string | null }>('SELECT goals_json FROM studies WHERE id = $1', [interview.study_id])).rows[0]?.goals_json : null;
  let proposals;
  try {
    proposals = await extractor.extract(turns, { studyGoals: goals ? JSON.parse(goals) : [] });
    if (llm) await recordKeyUse(services, interview.project_id, llm, null);
  } catch (err) {
    if (llm) await recordKeyUse(services, interview.project_id, llm, err instanceof Error ? err.message : 'extraction failed');
    throw err;
  }
  // Nothing found in a transcript the built-in extractor cannot read says why, rather than looking like a quiet interview.
  if (!llm && !proposals.length && warn && notEnglish(participantSample(turns))) {
    await warn({ code: 'language_unsupported', message: 'The transcript is not in English: the built-in extractor reads English only, so no evidence was extracted', action: "Configure a model in the project's settings to extract evidence from other languages" });
  }
  // A transcript imported without times has them estimated from its length: a moment's time is said as one.
  const estimated = /estimated_timing/.test(interview.transcript_format ?? '');
  const seen = new Set<string>();
  const rows: NewSignal[] = [];
  for (const p of proposals) {
    const where = locate(turns, p.quote, p.segment_id);
    if (!where) continue;
    const turn = turns.find((t) => t.segment_id === where.segment_id);
    if (turn?.role === 'interviewer') continue; // the interviewer's words are not the participant's evidence
    const key = `${p.signal_type}|${where.quote}`;
    if (seen.has(key)) continue;
    seen.add(key);
    rows.push({
      id: newId('sig'),
      project_id: interview.project_id,
      interview_id: interview.id,
      signal_type: p.signal_type,
      target_surface: p.target_surface,
      confidence: Math.min(1, Math.max(0, p.confidence)),
      intensity: p.intensity,
      quote: where.quote,
      timestamp_ms: where.timestamp_ms,
      segment_id: where.segment_id,
      page_url: null,
      page_title: null,
      preceding_actions: null,
      user_goal: p.user_goal,
      outcome: p.outcome,
      transcript_uncertain: where.uncertain,
      transcript_uncertainty_note: where.note,
      headline: p.headline,
      claim: p.claim,
      reconstruction: p.reconstruction,
      observed_facts_json: JSON.stringify(estimated ? p.observed_facts.map(roughly) : p.observed_facts),
      evidence_grade: where.uncertain ? 'weak' : p.evidence_grade,
      window_start_ms: where.window_start_ms,
      window_end_ms: where.window_end_ms,
      source: `pipeline:${extractor.name}`,
      manual: false,
    });
  }
  return withScreenContext(services, interview.id, await withPageContext(services, interview.id, rows));
}
