import { createHash } from 'node:crypto';
import { z } from 'zod';
import { sentences } from '../../core/sentences.ts';
import { capability } from '../../core/registry.ts';
import { principalOf, projectOf, type Ctx } from '../../core/context.ts';
import { ValidationError } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import { creates } from '../common.ts';
import { projectRefOf } from '../studies/record.ts';
import { Session, sessionRecord } from './record.ts';
import { activeStudy } from './crud.ts';
import { ROLE_LABEL, TranscriptError, assignRoles, parseTranscript, withoutControls } from './transcript-formats.ts';
import { queueProcessing } from './pipeline.ts';
import { inTransaction } from '../../core/tx.ts';
import { insertSegments, interviews } from './rows.ts';

export const MAX_TRANSCRIPT_BYTES = 5 * 1024 * 1024;

/** Rejects text that is really binary: NUL bytes or undecodable UTF-8. */
function checkText(text: string): void {
  if (text.includes('\u0000')) throw new ValidationError('transcript: the file is binary, not a text transcript', { code: 'transcript_not_text' });
  const bad = (text.match(/\uFFFD/g) ?? []).length;
  if (bad > Math.max(3, text.length * 0.01)) throw new ValidationError('transcript: the file is not UTF-8 text', { code: 'transcript_not_text' });
}

/** Optional parts shared by every way of bringing in an interview. */
export const importFields = {
  participant_name: z.string().trim().max(200).optional(),
  participant_email: z.email().max(320).optional(),
  import_source: z.string().trim().max(100).optional().describe('Where the transcript comes from, e.g. zoom, otter, manual'),
  study_ref: z.string().max(64).optional().describe('Handle or ref of an active study'),
  study_id: z.string().max(64).optional().describe('Alias of study_ref'),
};

/** A transcript in which no line names its speaker: every word is taken as the participant's, the interviewer's too. */
const NO_SPEAKERS = {
  step: 'importing',
  code: 'no_speakers',
  message: 'No line of the transcript names its speaker, so every word is taken as the participant\'s and the interviewer\'s questions may appear in evidence',
  action: 'Start each turn with the speaker\'s name ("Maria: …", "Maria (00:01:02): …", or a "Maria  0:09" line above it), or import WebVTT or SRT with speakers, and import it again',
};

/** Notes written about the participant ("She said the export times out…"), not their words. */
const NOTES = {
  step: 'importing',
  code: 'notes_not_transcript',
  message: 'This reads as notes about the participant ("she said…", "he wants…"), not as their own words; the built-in extractor quotes only what a participant says, so notes give little or no evidence',
  action: 'Import the conversation itself (who said what, "Maria: …"), or add evidence cards to this interview by hand (POST P/sessions/:id/signals)',
};
/** "She said", "He really wants", "The participant exports…": a person told about, in the third person. */
const REPORTED = /\b(?:she|he|the (?:participant|user|customer|client|interviewee))\s+(?:\w+ly\s+)?(?:\w+(?:s|ed)|said|told|felt|thought|would like)\b/i;
/** Most sentences report what someone else said or wants: notes, not a transcript. */
const readsAsNotes = (text: string) => {
  const said = sentences(text);
  return said.length > 0 && said.filter((x) => REPORTED.test(x.text)).length * 2 >= said.length;
};

/** A transcript whose every line is the interviewer's: nothing for evidence to come from. */
const NO_PARTICIPANT = {
  step: 'importing',
  code: 'no_participant_turns',
  message: 'Every line of the transcript is the interviewer\'s, so there are no participant words to take evidence from',
  action: 'Start the participant\'s lines with their name (or "Participant:") and import it again',
};

/** More than one person taken for the participant ("Speaker 2" and "Speaker 3"): a colleague's words would be taken as evidence. */
const severalParticipants = (names: string[]) => ({
  step: 'importing',
  code: 'several_participants',
  message: `${names.length} speakers are taken as participants (${names.join(', ')}), and the words of each are taken as evidence`,
  action: 'If one of them is a colleague or an observer, start their lines with "Interviewer:" (or the interviewer\'s name) and import it again',
});

/** The earliest interview of the project imported from the same turns, if any. */
async function importedBefore(ctx: Ctx, projectId: string, sha256: string) {
  const { rows } = await ctx.services.db.pool.query<{ id: string; participant_name: string | null; created_at: Date }>(
    `SELECT id, participant_name, created_at FROM interviews WHERE project_id = $1 AND transcript_sha256 = $2 ORDER BY created_at LIMIT 1`,
    [projectId, sha256],
  );
  return rows[0] ?? null;
}

/** Imported again: kept (it may be on purpose), and said, so a count of interviews and evidence is not silently doubled. */
const alreadyImported = (twin: { id: string; participant_name: string | null; created_at: Date }) => ({
  step: 'importing',
  code: 'already_imported',
  message: `The same transcript was already imported on ${twin.created_at.toISOString().slice(0, 10)} as interview ${twin.id}${twin.participant_name ? ` (${twin.participant_name})` : ''}, so its evidence is counted twice`,
  action: `If it was imported twice by mistake, delete one of the two ("Delete interview" on its page, or DELETE P/sessions/${twin.id})`,
});

/** Parses, stores the interview and its transcript, and queues processing in one transaction. */
export async function importTranscript(ctx: Ctx, text: string, input: { participant_name?: string; participant_email?: string; import_source?: string; study_ref?: string; study_id?: string }) {
  const { project } = projectOf(ctx);
  const { db } = ctx.services;
  if (Buffer.byteLength(text) > MAX_TRANSCRIPT_BYTES) throw new ValidationError('transcript: at most 5 MiB');
  checkText(text);
  let parsed;
  try {
    parsed = parseTranscript(withoutControls(text));
  } catch (err) {
    if (err instanceof TranscriptError || err instanceof SyntaxError) throw new ValidationError(`transcript: ${err.message}`, { code: 'transcript_unreadable' });
    throw err;
  }
  const lastEnd = parsed.segments[parsed.segments.length - 1]?.end_ms;
  const duration = lastEnd != null ? lastEnd / 1000 : null;
  // What it will cost is known now: an import that would cost more than is left is refused before anything is written.
  await ctx.services.billing.checkInterviewAllowed(project, duration);
  const study = await activeStudy(ctx, input.study_ref ?? input.study_id);
  const sha256 = createHash('sha256').update(JSON.stringify(parsed.segments.map((s) => [s.speaker, s.text]))).digest('hex');
  const twin = await importedBefore(ctx, project.id, sha256);
  const roles = assignRoles(parsed.segments, parsed.header);
  const participants = [...new Set(parsed.segments.filter((seg, i) => roles[i] === 'participant' && seg.speaker).map((seg) => seg.speaker!))];
  const named = parsed.header.participant ?? parsed.segments.find((s, i) => roles[i] === 'participant' && s.speaker && !ROLE_LABEL.test(s.speaker))?.speaker ?? null;
  const interview = await inTransaction(db.pool, async (sql) => {
    const row = await interviews.insert(sql, {
      id: newId('int'),
      project_id: project.id,
      study_id: study?.id ?? null,
      source: 'import',
      status: 'completed',
      processing_status: 'pending',
      interview_mode: 'transcript',
      participant_name: input.participant_name ?? named,
      // When it took place, as the document's "Date:" line says; else unknown (created_at is when it was imported).
      started_at: parsed.header.date ? new Date(parsed.header.date) : null,
      participant_email: input.participant_email ?? null,
      import_source: input.import_source ?? null,
      transcript_format: parsed.estimatedTiming ? `${parsed.format}+estimated_timing` : parsed.format,
      duration_seconds: duration,
      created_by: principalOf(ctx).userId,
      transcript_sha256: sha256,
      processing_warnings: [
        ...(!parsed.segments.some((seg) => seg.speaker) ? [readsAsNotes(text.slice(0, 20_000)) ? NOTES : NO_SPEAKERS] : !roles.includes('participant') ? [NO_PARTICIPANT] : []),
        ...(participants.length > 1 ? [severalParticipants(participants)] : []),
        ...(twin ? [alreadyImported(twin)] : []),
      ],
    });
    await insertSegments(sql, row.id, parsed.segments.map((s, idx) => ({ id: newId('seg'), speaker: s.speaker, role: roles[idx], start_ms: s.start_ms, end_ms: s.end_ms, text: s.text })));
    await queueProcessing(ctx.services, row, sql, 'extracting');
    return row;
  });
  return { session: sessionRecord(interview, projectRefOf(ctx)), queued: true as const };
}

export const importTranscriptCapability = capability({
  name: 'interviews.import_transcript',
  title: 'Import an interview transcript',
  description:
    'Imports a transcript (plain text with "Name: words" or "Name (00:01:02): words" lines, or a "Name  0:09" / "00:00:09 Name" / "Speaker 1 (00:00:05):" line above each turn, as Otter, Rev, Google Meet and Dovetail export them; WebVTT (voice tags or "Name:" in cues), SRT ("[NAME]" or "Name:" in cues), or a JSON list of { speaker, text, start, end }) as a ' +
    'completed interview and queues evidence extraction. A document\'s title and "Participant: …", "Interviewer: …", "Date: …" lines above the conversation are read as its details. Non-empty, at most 5 MiB. Poll interviews.processing_status for progress.',
  input: z.strictObject({
    // Spaces and blank lines only are empty too, and said the same way.
    transcript: z.string().max(MAX_TRANSCRIPT_BYTES).refine((t) => t.trim().length > 0, 'must not be empty').describe('The transcript text'),
    ...importFields,
  }),
  output: z.object({ session: Session, queued: z.literal(true) }),
  annotations: creates,
  scope: 'write',
  access: 'project',
  rest: {
    method: 'POST',
    path: 'P/sessions/import-transcript',
    status: 201,
    multipart: { transcript: { kind: 'text', maxBytes: MAX_TRANSCRIPT_BYTES } },
  },
  async handler(ctx, input) {
    const { transcript, ...rest } = input;
    return importTranscript(ctx, transcript, rest);
  },
});
