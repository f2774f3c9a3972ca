type Timestamps = { created_at: Date; updated_at: Date };

export type Role = 'owner' | 'admin' | 'member';

export interface UserAttrs extends Timestamps {
  id: string;
  email: string;
  name: string | null;
  is_admin: boolean;
  personal_org_id: string | null;
  onboarding_json: Record<string, unknown> | null;
}
export interface UserSessionAttrs extends Timestamps {
  id: string;
  user_id: string;
  origin: string;
  expires_at: Date;
  revoked_at: Date | null;
}
export interface OrganizationAttrs extends Timestamps {
  id: string;
  handle: string;
  name: string;
  personal: boolean;
}
export interface MembershipAttrs extends Timestamps {
  id: string;
  organization_id: string;
  user_id: string;
  role: Role;
}
export interface ProjectAttrs extends Timestamps {
  id: string;
  organization_id: string;
  handle: string;
  name: string;
  description: string | null;
  codehost_repo_url: string | null;
  codehost_default_branch: string;
  codehost_installation_id: string | null;
  tracker_team_id: string | null;
  public_key: string;
}
export interface StudyAttrs extends Timestamps {
  id: string;
  project_id: string;
  handle: string;
  title: string;
  description: string | null;
  status: string;
  goals_json: string | null;
  script_json: string | null;
  settings_json: string | null;
  invitation_json: Record<string, unknown> | null;
  visibility_json: Record<string, unknown> | null;
  allowed_origins: string[];
  allowed_selectors: string[];
  intake_id: string | null;
  intake_auto_created: boolean;
  version: number;
  origin_guard_failure: Record<string, unknown> | null;
}
export interface IntakeAttrs extends Timestamps {
  id: string;
  project_id: string;
  handle: string;
  title: string;
  description: string | null;
  welcome_message: string | null;
  status: 'active' | 'paused' | 'closed';
  auto_managed: boolean;
  max_participants: number | null;
  logo_storage_key: string | null;
  brand_color: string;
  thank_you_message: string;
  disqualified_message: string;
  consent_text: string;
  complete_count: number;
  qualified_count: number;
  disqualified_count: number;
}
export interface IntakeQuestionAttrs extends Timestamps {
  id: string;
  intake_id: string;
  question_text: string;
  question_type: string;
  required: boolean;
  sort_order: number;
  options_json: string | null;
  min_value: number | null;
  max_value: number | null;
  qualification_rules_json: string | null;
}
export interface IntakeResponseAttrs extends Timestamps {
  id: string;
  intake_id: string;
  participant_name: string | null;
  participant_email: string | null;
  qualified: boolean | null;
  qualification_reason: string | null;
  answers_json: string;
  session_id: string | null;
  utm_source: string | null;
  utm_medium: string | null;
  utm_campaign: string | null;
  consent_given: boolean;
  consent_recording: boolean;
}
/** Something a processing step did differently than configured, shown on the processing status. */
export interface ProcessingWarning {
  step: string;
  code: string;
  message: string;
  action: string | null;
}

export interface InterviewAttrs extends Timestamps {
  id: string;
  project_id: string;
  study_id: string | null;
  intake_id: string | null;
  intake_response_id: string | null;
  source: string;
  status: string;
  processing_status: string;
  interview_mode: string | null;
  participant_name: string | null;
  participant_email: string | null;
  summary: string | null;
  consent_recording: boolean | null;
  consent_data_use: boolean | null;
  consent_version: string | null;
  started_at: Date | null;
  ended_at: Date | null;
  duration_seconds: number | null;
  import_source: string | null;
  transcript_format: string | null;
  processing_step: string | null;
  processing_error_code: string | null;
  processing_error_message: string | null;
  processing_retryable: boolean | null;
  processing_error_action: string | null;
  processing_warnings: ProcessingWarning[];
  /** SHA-256 of an imported transcript's turns (speaker and words), to notice the same import twice. */
  transcript_sha256?: string | null;
  transcription_total: number;
  transcription_completed: number;
  evidence_count: number;
  processing_started_at: Date | null;
  processed_at: Date | null;
  created_by: string | null;
  conductor_state: Record<string, unknown> | null;
  conductor_token_hash: string | null;
  conductor_seen_at: Date | null;
  finalize_after: Date | null;
  recording_health: Record<string, unknown> | null;
}
export interface ArtifactAttrs extends Timestamps {
  id: string;
  interview_id: string;
  name: string;
  kind: string;
  storage_key: string;
  mime_type: string;
  size: number;
  meta: Record<string, unknown> | null;
}
export interface TranscriptSegmentAttrs extends Timestamps {
  id: string;
  interview_id: string;
  idx: number;
  speaker: string | null;
  role: 'participant' | 'interviewer' | 'unknown';
  start_ms: number | null;
  end_ms: number | null;
  text: string;
}
export interface MediaChunkAttrs extends Timestamps {
  id: string;
  interview_id: string;
  type: 'audio' | 'screen';
  chunk_index: number;
  storage_key: string;
  mime_type: string;
  size: number;
  /** Where the piece starts on the interview's clock (ms since start), when the widget says. */
  started_ms: number | null;
}
export interface MediaUploadAttrs extends Timestamps {
  id: string;
  project_id: string;
  storage_key: string;
  store_upload_id: string;
  filename: string;
  content_type: string;
  size: number;
  part_size: number;
  part_count: number;
  status: 'open' | 'completed' | 'aborted';
  interview_id: string | null;
  created_by: string | null;
  expires_at: Date;
}
export interface SignalAttrs extends Timestamps {
  id: string;
  project_id: string;
  interview_id: string;
  signal_type: string;
  target_surface: string;
  confidence: number;
  intensity: number | null;
  quote: string;
  timestamp_ms: number | null;
  segment_id: string | null;
  page_url: string | null;
  page_title: string | null;
  preceding_actions: string[] | null;
  user_goal: string | null;
  outcome: string | null;
  transcript_uncertain: boolean;
  transcript_uncertainty_note: string | null;
  headline: string | null;
  claim: string | null;
  reconstruction: string | null;
  observed_facts_json: string | null;
  evidence_grade: string | null;
  window_start_ms: number | null;
  window_end_ms: number | null;
  annotation_text: string | null;
  annotation_by: string | null;
  annotation_at: Date | null;
  dismissed_at: Date | null;
  dismissed_reason: string | null;
  dismissed_by: string | null;
  review_status: string | null;
  review_note: string | null;
  reviewed_by: string | null;
  reviewed_at: Date | null;
  source: string;
  manual: boolean;
  created_by: string | null;
}
export interface ProjectSettingAttrs extends Timestamps {
  project_id: string;
  key: string;
  value: string | null;
  ciphertext: string | null;
  key_id: string | null;
  updated_by: string | null;
  last_success_at: Date | null;
  last_error_at: Date | null;
  last_error: string | null;
}

export interface TaskAttrs extends Timestamps {
  id: string;
  project_id: string;
  title: string;
  description: string | null;
  task_type: string;
  status: 'backlog' | 'ready' | 'in_progress' | 'done' | 'wont_fix';
  priority_score: number;
  effort_estimate: string | null;
  review_packet: boolean;
  promoted_at: Date | null;
  finding_id: string | null;
  tracker_issue_id: string | null;
  tracker_issue_url: string | null;
  tracker_issue_status: string | null;
  completed_at: Date | null;
  created_by: string | null;
  updated_by: string | null;
}
export interface FindingAttrs extends Timestamps {
  id: string;
  project_id: string;
  title: string;
  description: string | null;
  target_surface: string;
  research_state: 'draft' | 'reviewed' | 'closed';
  delivery_state: string;
  provider_placement: string | null;
  priority_score: number;
  effort_estimate: string | null;
  implementation_branch: string | null;
  implementation_pr_url: string | null;
  implementation_pr_number: number | null;
  deployed_at: Date | null;
  reviewed_at: Date | null;
  reviewed_by: string | null;
  closed_at: Date | null;
  closed_by: string | null;
  created_by: string | null;
}

// Plain rows as `pg` reads them (tools/interviews/rows.ts).
export type InterviewRow = InterviewAttrs;
export type ArtifactRow = ArtifactAttrs;
export type TranscriptSegmentRow = TranscriptSegmentAttrs;
export type MediaChunkRow = MediaChunkAttrs;
export type MediaUploadRow = MediaUploadAttrs;
