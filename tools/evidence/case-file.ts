import type { z } from 'zod';
import type { Services } from '../../core/context.ts';
import type { SignalRow } from './rows.ts';
import { iso } from '../common.ts';
import type { CaseFile, LinkedTask, EvidenceResolution, Provenance, RecurrenceCandidate, SignalRecord } from './record.ts';

export interface Links {
  linked_task: z.input<typeof LinkedTask> | null;
  evidence_resolution: z.input<typeof EvidenceResolution> | null;
  recurrence_candidates: Array<z.input<typeof RecurrenceCandidate>>;
}

/** Where a card comes from: study, interview, page and moment. */
export async function provenanceOf(services: Services, s: SignalRow): Promise<z.input<typeof Provenance>> {
  const { rows } = await services.db.pool.query(
    `SELECT i.id, i.participant_name, i.started_at, i.created_at, i.interview_mode, i.duration_seconds,
            st.id AS study_ref, st.handle AS study_handle, st.title AS study_title
       FROM interviews i LEFT JOIN studies st ON st.id = i.study_id WHERE i.id = $1`,
    [s.interview_id],
  );
  const r = (rows as Array<Record<string, unknown>>)[0];
  return {
    study: r?.study_ref ? { ref: r.study_ref as string, handle: r.study_handle as string, title: r.study_title as string } : null,
    interview: r
      ? {
          id: r.id as string,
          participant_name: (r.participant_name as string | null) ?? null,
          started_at: iso((r.started_at ?? r.created_at) as Date),
          interview_mode: (r.interview_mode as string | null) ?? null,
          duration_seconds: (r.duration_seconds as number | null) ?? null,
        }
      : null,
    page: s.page_url ? { url: s.page_url, title: s.page_title } : null,
    timestamp_ms: s.timestamp_ms,
    source: s.source,
  };
}

/** SPEC 2.6.2: the self-contained case file of an evidence card. */
export function caseFileOf(s: SignalRow, record: SignalRecord, provenance: z.input<typeof Provenance>, links: Links): z.input<typeof CaseFile> {
  return {
    case_file_version: 'evidence_case_file.v1',
    evidence_card: {
      contract_version: 'pipeline.v1',
      artifact_kind: 'evidence_card',
      artifact_id: s.id,
      session_id: s.interview_id,
      created_at: record.created_at,
      project_ref: record.project_ref,
      evidence: {
        signal_type: s.signal_type as never,
        target_surface: s.target_surface as never,
        headline: s.headline,
        quote: s.quote,
        observed_facts: s.observed_facts_json ? (JSON.parse(s.observed_facts_json) as string[]) : null,
        claim: s.claim,
        reconstruction: s.reconstruction,
        evidence_grade: (s.evidence_grade ?? 'weak') as never,
        confidence: s.confidence,
        intensity: s.intensity,
        timestamp_ms: s.timestamp_ms,
        window_start_ms: s.window_start_ms,
        window_end_ms: s.window_end_ms,
        segment_id: s.segment_id,
        page_url: s.page_url,
        page_title: s.page_title,
        preceding_actions: s.preceding_actions,
        user_goal: s.user_goal,
        outcome: s.outcome,
        transcript_uncertain: s.transcript_uncertain,
        transcript_uncertainty_note: s.transcript_uncertainty_note,
      },
    },
    provenance: { ...provenance, study: provenance.study ? { handle: provenance.study.handle, title: provenance.study.title } : null },
    review: {
      review_status: s.review_status,
      review_note: s.review_note,
      annotation_text: s.annotation_text,
      annotation_by: s.annotation_by,
      annotation_at: iso(s.annotation_at),
      dismissed_at: iso(s.dismissed_at),
      dismissed_reason: s.dismissed_reason,
      dismissed_by: s.dismissed_by,
    },
    links,
  };
}
