import type { Sql } from '../../core/tx.ts';
import { table } from '../../core/table.ts';
import type { ArtifactRow, InterviewRow, MediaChunkRow, MediaUploadRow, TranscriptSegmentRow } from '../../models/index.ts';

export const interviews = table<InterviewRow>()(
  'interviews',
  [
    'id', 'project_id', 'study_id', 'intake_id', 'intake_response_id', 'source', 'status', 'processing_status', 'interview_mode', 'participant_name',
    'participant_email', 'summary', 'consent_recording', 'consent_data_use', 'consent_version', 'started_at', 'ended_at', 'duration_seconds',
    'import_source', 'transcript_format', 'processing_step', 'processing_error_code', 'processing_error_message', 'processing_retryable',
    'processing_error_action', 'processing_warnings', 'transcript_sha256', 'transcription_total', 'transcription_completed', 'evidence_count', 'processing_started_at',
    'processed_at', 'created_by', 'conductor_state', 'conductor_token_hash', 'conductor_seen_at', 'finalize_after', 'recording_health',
    'created_at', 'updated_at',
  ],
  ['processing_warnings', 'conductor_state', 'recording_health'],
);

export const artifacts = table<ArtifactRow>()(
  'interview_artifacts',
  ['id', 'interview_id', 'name', 'kind', 'storage_key', 'mime_type', 'size', 'meta', 'created_at', 'updated_at'],
  ['meta'],
);

export const segments = table<TranscriptSegmentRow>()('transcript_segments', [
  'id', 'interview_id', 'idx', 'speaker', 'role', 'start_ms', 'end_ms', 'text', 'created_at', 'updated_at',
]);

export const mediaChunks = table<MediaChunkRow>()('media_chunks', [
  'id', 'interview_id', 'type', 'chunk_index', 'storage_key', 'mime_type', 'size', 'started_ms', 'created_at', 'updated_at',
]);

export const mediaUploads = table<MediaUploadRow>()('media_uploads', [
  'id', 'project_id', 'storage_key', 'store_upload_id', 'filename', 'content_type', 'size', 'part_size', 'part_count', 'status', 'interview_id',
  'created_by', 'expires_at', 'created_at', 'updated_at',
]);

/** One line of a transcript, as the steps and imports that write transcripts make it. */
export type NewSegment = Pick<TranscriptSegmentRow, 'speaker' | 'role' | 'start_ms' | 'end_ms' | 'text'> & { id: string };

/** Writes an interview's transcript in one statement, numbered in order (the caller removes an old one first when replacing it). */
export async function insertSegments(sql: Sql, interviewId: string, lines: readonly NewSegment[]): Promise<void> {
  if (!lines.length) return;
  await sql.query(
    `INSERT INTO transcript_segments (id, interview_id, idx, speaker, role, start_ms, end_ms, text)
     SELECT s.id, $1, s.n - 1, s.speaker, s.role, s.start_ms, s.end_ms, s.text
       FROM ROWS FROM (jsonb_to_recordset($2::jsonb) AS (id text, speaker text, role text, start_ms integer, end_ms integer, text text))
            WITH ORDINALITY AS s(id, speaker, role, start_ms, end_ms, text, n)`,
    [interviewId, JSON.stringify(lines)],
  );
}

/** An interview's transcript in order. */
export function segmentsOf(sql: Sql, interviewId: string): Promise<TranscriptSegmentRow[]> {
  return segments.select(sql, 'interview_id = $1', [interviewId], 'ORDER BY idx');
}
