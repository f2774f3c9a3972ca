import { z } from 'zod';
import type { SignalAttrs } from '../../models/index.ts';
import { Timestamp, iso, isoRequired } from '../common.ts';
import { EVIDENCE_GRADES, SIGNAL_TYPES, TARGET_SURFACES } from './types.ts';

const S = z.string().nullable();

export const LinkedTask = z.object({
  id: z.string(),
  title: z.string(),
  status: z.enum(['backlog', 'ready', 'in_progress', 'done', 'wont_fix']),
  tracker_issue_id: S,
  tracker_issue_url: S,
  tracker_issue_status: S,
});
export const EvidenceResolution = z.object({
  link_id: z.string(),
  task_id: z.string(),
  linked_at: z.string(),
  resolved_at: S,
  resolved_by_provider: S,
  resolved_by_provider_issue_id: S,
  resolution_reason: S,
});
export const RecurrenceCandidate = z.object({
  id: z.string(),
  related_task_id: z.string(),
  related_resolved_signal_id: S,
  confidence: z.number(),
  reason: S,
  status: z.enum(['candidate', 'confirmed', 'dismissed']),
  created_at: z.string(),
  reviewed_at: S,
  related_task: z.object({ id: z.string(), title: z.string(), status: z.string() }).nullable(),
});
export const Provenance = z.object({
  study: z.object({ ref: z.string(), handle: z.string(), title: z.string() }).nullable(),
  interview: z
    .object({ id: z.string(), participant_name: S, started_at: S, interview_mode: S, duration_seconds: z.number().nullable() })
    .nullable(),
  page: z.object({ url: z.string(), title: S }).nullable(),
  timestamp_ms: z.number().nullable(),
  source: S,
});

/** SPEC 2.6.2: the evidence inside a case file. No extra properties. */
export const CaseFileEvidence = z.strictObject({
  signal_type: z.enum(SIGNAL_TYPES),
  target_surface: z.enum(TARGET_SURFACES),
  headline: z.string().min(1).nullable().optional(),
  quote: z.string(),
  observed_facts: z.array(z.string().min(1)).nullable().optional(),
  claim: z.string().min(1).nullable().optional(),
  reconstruction: z.string().min(1).nullable().optional(),
  evidence_grade: z.enum(EVIDENCE_GRADES),
  confidence: z.number().min(0).max(1),
  intensity: z.number().nullable().optional(),
  timestamp_ms: z.number().nullable().optional(),
  window_start_ms: z.number().nullable().optional(),
  window_end_ms: z.number().nullable().optional(),
  segment_id: S.optional(),
  page_url: S.optional(),
  page_title: S.optional(),
  preceding_actions: z.array(z.string()).nullable().optional(),
  user_goal: S.optional(),
  outcome: S.optional(),
  transcript_uncertain: z.boolean(),
  transcript_uncertainty_note: S.optional(),
});

export const CaseFile = z
  .object({
    case_file_version: z.literal('evidence_case_file.v1'),
    evidence_card: z.object({
      contract_version: z.literal('pipeline.v1'),
      artifact_kind: z.literal('evidence_card'),
      artifact_id: z.string().optional(),
      session_id: z.string().optional(),
      created_at: z.string().optional(),
      project_ref: z.string().optional(),
      evidence: CaseFileEvidence,
    }),
    provenance: Provenance.extend({ study: z.object({ handle: z.string(), title: z.string() }).nullable() }),
    review: z.object({
      review_status: S,
      review_note: S,
      annotation_text: S,
      annotation_by: S,
      annotation_at: S,
      dismissed_at: S,
      dismissed_reason: S,
      dismissed_by: S,
    }),
    links: z.object({ linked_task: LinkedTask.nullable(), evidence_resolution: EvidenceResolution.nullable(), recurrence_candidates: z.array(RecurrenceCandidate) }),
  })
  .meta({ id: 'EvidenceCaseFile' });

export const Signal = z
  .object({
    id: z.string(),
    project_ref: z.string(),
    session_id: z.string(),
    signal_type: z.string(),
    target_surface: z.enum(TARGET_SURFACES),
    confidence: z.number(),
    intensity: z.number().nullable(),
    quote: z.string(),
    timestamp_ms: z.number().nullable(),
    segment_id: S,
    page_url: S,
    page_title: S,
    preceding_actions: S,
    user_goal: S,
    outcome: S,
    transcript_uncertain: z.boolean(),
    transcript_uncertainty_note: S,
    annotation_text: S,
    annotation_by: S,
    annotation_at: S,
    dismissed_at: S,
    dismissed_reason: S,
    dismissed_by: S,
    source: S,
    created_at: Timestamp,
    headline: S.optional(),
    claim: S.optional(),
    reconstruction: S.optional(),
    observed_facts_json: S.optional(),
    evidence_grade: S.optional(),
    window_start_ms: z.number().nullable().optional(),
    window_end_ms: z.number().nullable().optional(),
    review_status: S.optional(),
    review_note: S.optional(),
    linked_task: LinkedTask.nullable().optional(),
    evidence_resolution: EvidenceResolution.nullable().optional(),
    recurrence_candidates: z.array(RecurrenceCandidate).optional(),
    provenance: Provenance.nullable().optional(),
    case_file: CaseFile.nullable().optional(),
  })
  .meta({ id: 'Signal' });
export type SignalRecord = z.input<typeof Signal>;

/** The flat SPEC 2.6 record of a stored evidence card. */
/** A stored card's fields; timestamps as Dates or as Postgres's UTC text. */
export type SignalFields = Omit<SignalAttrs, 'created_at' | 'annotation_at' | 'dismissed_at'> & { created_at: Date | string; annotation_at: Date | string | null; dismissed_at: Date | string | null };

export function signalRecord(s: SignalFields, projectRef: string): SignalRecord {
  return {
    id: s.id,
    project_ref: projectRef,
    session_id: s.interview_id,
    signal_type: s.signal_type,
    target_surface: s.target_surface as SignalRecord['target_surface'],
    confidence: s.confidence,
    intensity: s.intensity,
    quote: s.quote,
    timestamp_ms: s.timestamp_ms,
    segment_id: s.segment_id,
    page_url: s.page_url,
    page_title: s.page_title,
    preceding_actions: s.preceding_actions ? JSON.stringify(s.preceding_actions) : null,
    user_goal: s.user_goal,
    outcome: s.outcome,
    transcript_uncertain: s.transcript_uncertain,
    transcript_uncertainty_note: s.transcript_uncertainty_note,
    annotation_text: s.annotation_text,
    annotation_by: s.annotation_by,
    annotation_at: iso(s.annotation_at),
    dismissed_at: iso(s.dismissed_at),
    dismissed_reason: s.dismissed_reason,
    dismissed_by: s.dismissed_by,
    source: s.source,
    created_at: isoRequired(s.created_at),
    headline: s.headline,
    claim: s.claim,
    reconstruction: s.reconstruction,
    observed_facts_json: s.observed_facts_json,
    evidence_grade: s.evidence_grade,
    window_start_ms: s.window_start_ms,
    window_end_ms: s.window_end_ms,
    review_status: s.review_status,
    review_note: s.review_note,
  };
}
