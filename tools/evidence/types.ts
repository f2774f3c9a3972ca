/** SPEC 2.6.1 and 2.6: the words evidence is described with. */
export const SIGNAL_TYPES = [
  'struggling_moment',
  'desired_outcome',
  'workaround',
  'hiring_criteria',
  'firing_moment',
  'emotional_response',
  'no_issue_found',
  'smooth_completion',
  'critical_error',
  'recovery_success',
  'decision_point',
] as const;
export type SignalType = (typeof SIGNAL_TYPES)[number];

export const TARGET_SURFACES = ['product_under_test', 'service_widget_interview', 'interviewer_conductor_behavior', 'ambiguous_needs_review'] as const;
export type TargetSurface = (typeof TARGET_SURFACES)[number];

export const EVIDENCE_GRADES = ['direct', 'strong_circumstantial', 'weak'] as const;
export type EvidenceGrade = (typeof EVIDENCE_GRADES)[number];

/** One transcript turn as extractors see it. */
export interface Turn {
  segment_id: string;
  idx: number;
  role: 'participant' | 'interviewer' | 'unknown';
  speaker: string | null;
  start_ms: number | null;
  end_ms: number | null;
  text: string;
}

/** What an extractor proposes; the pipeline checks the quote against the transcript before storing. */
export interface ExtractedEvidence {
  signal_type: SignalType;
  target_surface: TargetSurface;
  quote: string;
  segment_id: string | null;
  confidence: number;
  intensity: number | null;
  evidence_grade: EvidenceGrade;
  headline: string;
  claim: string;
  reconstruction: string;
  observed_facts: string[];
  user_goal: string | null;
  outcome: string | null;
}

export interface ExtractionContext {
  studyGoals: Array<{ id: string; description: string }>;
}

export interface Extractor {
  readonly name: string;
  extract(turns: Turn[], context: ExtractionContext): Promise<ExtractedEvidence[]>;
}

/** What a moment of each type meant for the task; a card's outcome until someone says otherwise. */
export const OUTCOME: Partial<Record<SignalType, string>> = {
  struggling_moment: 'delayed or blocked',
  critical_error: 'blocked',
  smooth_completion: 'completed',
  recovery_success: 'completed after recovering',
  firing_moment: 'at risk of churn',
  workaround: 'completed outside the product',
};

/** Longest headline a card is given: a researcher's summary, read at a glance. */
export const HEADLINE_MAX = 70;
