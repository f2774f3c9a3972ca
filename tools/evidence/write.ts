import { z } from 'zod';
import { capability } from '../../core/registry.ts';
import { projectOf, type Ctx } from '../../core/context.ts';
import { NotFoundError, ValidationError } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import { creates, deletes, Success, updates } from '../common.ts';
import { Signal } from './record.ts';
import { EVIDENCE_GRADES, OUTCOME, SIGNAL_TYPES, TARGET_SURFACES, type SignalType } from './types.ts';
import { SignalIdParam, findSignal, fullSignal } from './read.ts';
import { MAX_BULK, linkSignals, signalsInProject } from './links.ts';
import { actorOf, logActivities, logActivity } from '../activity.ts';
import { withScreenContext } from './screen-context.ts';
import { locate } from './locate.ts';
import { turnsOf } from './extract.ts';
import { SessionIdParam, findInterview } from '../interviews/record.ts';
import { TaskIdParam } from '../work/record.ts';
import { detectRecurrence } from './recurrence.ts';
import { signals, type SignalRow } from './rows.ts';
import { inTransaction, type Sql } from '../../core/tx.ts';
import { recount } from './count.ts';

const Out = z.object({ signal: Signal });
const Annotation = z.string().trim().min(1).max(2000, 'must be at most 2000 characters');
const SignalIds = z.array(z.string().min(1).max(64)).min(1).max(MAX_BULK, `at most ${MAX_BULK} ids in one call`);

/** Saves changes to one card, logs who made them, and answers the full card. */
async function change(ctx: Ctx, signalId: string, action: string, apply: (s: SignalRow, sql: Sql) => Partial<SignalRow> | Promise<Partial<SignalRow>>, data: Record<string, unknown> | null = null) {
  const row = await inTransaction(ctx.services.db.pool, async (sql) => {
    const s = await findSignal(ctx, signalId, sql, true);
    const saved = (await signals.update(sql, s.id, await apply(s, sql)))!;
    if ((saved.dismissed_at == null) !== (s.dismissed_at == null) || saved.headline !== s.headline || saved.signal_type !== s.signal_type) await recount(sql, [s.interview_id]);
    await logActivity(ctx, { type: 'signal', id: s.id }, action, data, sql);
    return saved;
  });
  return { signal: await fullSignal(ctx, row) };
}

/** SPEC 4.8 names three fields otherwise (type, analysis, context); either name works, and two different values for one field are refused. */
function spelledAsSpec(spec: { type?: SignalType; analysis?: string | null; context?: string | null }, named: { signal_type?: SignalType; reconstruction?: string | null; user_goal?: string | null }) {
  const pairs = [['type', 'signal_type', spec.type, named.signal_type], ['analysis', 'reconstruction', spec.analysis, named.reconstruction], ['context', 'user_goal', spec.context, named.user_goal]] as const;
  const out: { signal_type?: SignalType; reconstruction?: string | null; user_goal?: string | null } = {};
  for (const [alias, field, given, other] of pairs) {
    if (given === undefined) continue;
    // "" and null both clear a field: the same value under two names.
    if (other !== undefined && (other ?? '') !== (given ?? '')) throw new ValidationError(`${alias}: is another name for ${field}, which says otherwise`);
    Object.assign(out, { [field]: given });
  }
  return out;
}

/** A new quote must be found in the interview's transcript, as the pipeline's are. */
async function checkedQuote(sql: Sql, s: SignalRow, quote: string) {
  const where = locate(await turnsOf(sql, s.interview_id), quote, s.segment_id);
  if (!where || where.uncertain) throw new ValidationError('quote: must be copied from the interview transcript', { code: 'quote_not_in_transcript' });
  return { quote: where.quote, segment_id: where.segment_id, timestamp_ms: where.timestamp_ms, window_start_ms: where.window_start_ms, window_end_ms: where.window_end_ms, transcript_uncertain: false, transcript_uncertainty_note: null };
}

export const updateSignal = capability({
  name: 'evidence.update',
  title: 'Update an evidence card',
  description:
    'Corrects an evidence card (type, target surface, confidence, grade, quote — which must come from the transcript — headline, claim, ' +
    'context) and can annotate it or dismiss/restore it in the same call. Who changed it and when is kept.',
  input: z.strictObject({
    signalId: SignalIdParam,
    signal_type: z.enum(SIGNAL_TYPES).optional(),
    type: z.enum(SIGNAL_TYPES).optional().describe('Another name for signal_type'),
    target_surface: z.enum(TARGET_SURFACES).optional(),
    confidence: z.number().min(0).max(1).optional(),
    intensity: z.number().min(0).max(1).nullable().optional(),
    evidence_grade: z.enum(EVIDENCE_GRADES).optional(),
    quote: z.string().trim().min(1).max(4000).optional(),
    headline: z.string().trim().min(1).max(200).nullable().optional(),
    claim: z.string().trim().min(1).max(2000).nullable().optional(),
    reconstruction: z.string().trim().min(1).max(4000).nullable().optional().describe('The analysis: what happened around the quote'),
    analysis: z.string().trim().min(1).max(4000).nullable().optional().describe('Another name for reconstruction: what happened around the quote'),
    user_goal: z.string().trim().max(500).nullable().optional(),
    context: z.string().trim().max(500).nullable().optional().describe('Another name for user_goal: what the participant was trying to do'),
    outcome: z.string().trim().max(500).nullable().optional(),
    annotation: Annotation.optional(),
    dismissed: z.boolean().optional(),
    dismissed_reason: z.string().trim().min(1).max(500).optional(),
  }),
  output: Out,
  annotations: updates,
  scope: 'write',
  access: 'project',
  rest: { method: 'PATCH', path: 'P/signals/:signalId' },
  async handler(ctx, { signalId, annotation, dismissed, dismissed_reason, quote, type, analysis, context, ...named }) {
    const fields = { ...named, ...spelledAsSpec({ type, analysis, context }, named) };
    if (!Object.keys(fields).length && annotation === undefined && dismissed === undefined && quote === undefined) throw new ValidationError('Nothing to update: send at least one field');
    if (dismissed && !dismissed_reason) throw new ValidationError('dismissed_reason: say why the card is dismissed');
    const actor = actorOf(ctx);
    return change(ctx, signalId, 'updated', async (s, sql) => ({
      ...fields,
      // A new type brings its own outcome, unless the outcome was set by hand.
      ...(fields.signal_type && fields.signal_type !== s.signal_type && fields.outcome === undefined && s.outcome === (OUTCOME[s.signal_type as SignalType] ?? null) ? { outcome: OUTCOME[fields.signal_type] ?? null } : {}),
      ...(quote !== undefined ? await checkedQuote(sql, s, quote) : {}),
      ...(annotation !== undefined ? { annotation_text: annotation, annotation_by: actor, annotation_at: new Date() } : {}),
      ...(dismissed === true ? { dismissed_at: new Date(), dismissed_reason: dismissed_reason!, dismissed_by: actor } : {}),
      ...(dismissed === false ? { dismissed_at: null, dismissed_reason: null, dismissed_by: null } : {}),
    }), { fields: Object.keys(fields), quote: quote !== undefined, annotation: annotation !== undefined, dismissed });
  },
});

export const annotateSignal = capability({
  name: 'evidence.annotate',
  title: 'Annotate an evidence card',
  description:
    'Sets the card\'s annotation (at most 2000 characters), recording who wrote it and when. ' +
    'Use it to leave a researcher\'s note on a card without changing its content; evidence.update changes the card itself.',
  input: z.strictObject({ signalId: SignalIdParam, text: Annotation }),
  output: Out,
  annotations: updates,
  scope: 'write',
  access: 'project',
  rest: { method: 'POST', path: 'P/signals/:signalId/annotate' },
  async handler(ctx, input) {
    return change(ctx, input.signalId, 'annotated', () => ({ annotation_text: input.text, annotation_by: actorOf(ctx), annotation_at: new Date() }));
  },
});

export const dismissSignal = capability({
  name: 'evidence.dismiss',
  title: 'Dismiss an evidence card',
  description: 'Soft-excludes a card from lists, findings and counts, with a reason. Reversible with evidence.undismiss.',
  input: z.strictObject({ signalId: SignalIdParam, reason: z.string().trim().min(1).max(500) }),
  output: Out,
  annotations: updates,
  scope: 'write',
  access: 'project',
  rest: { method: 'POST', path: 'P/signals/:signalId/dismiss' },
  async handler(ctx, input) {
    return change(ctx, input.signalId, 'dismissed', () => ({ dismissed_at: new Date(), dismissed_reason: input.reason, dismissed_by: actorOf(ctx) }), { reason: input.reason });
  },
});

export const undismissSignal = capability({
  name: 'evidence.undismiss',
  title: 'Restore a dismissed evidence card',
  description:
    'Brings a dismissed card back into lists, findings and counts. ' +
    'Use it when a card was dismissed by mistake or has become relevant again; it undoes evidence.dismiss.',
  input: z.strictObject({ signalId: SignalIdParam }),
  output: Out,
  annotations: updates,
  scope: 'write',
  access: 'project',
  rest: { method: 'POST', path: 'P/signals/:signalId/undismiss' },
  async handler(ctx, input) {
    return change(ctx, input.signalId, 'undismissed', () => ({ dismissed_at: null, dismissed_reason: null, dismissed_by: null }));
  },
});

export const reviewSignal = capability({
  name: 'evidence.review',
  title: 'Review an evidence card',
  description:
    'Records a review of the card: reviewed (default), needs_review or rejected, with an optional note; who and when are kept. ' +
    'Use it after checking the card against its quote and context (evidence.get, interviews.get_context).',
  input: z.strictObject({ signalId: SignalIdParam, review_status: z.enum(['reviewed', 'needs_review', 'rejected']).default('reviewed'), note: z.string().trim().max(2000).optional() }),
  output: Out,
  annotations: updates,
  scope: 'write',
  access: 'project',
  rest: { method: 'POST', path: 'P/signals/:signalId/review' },
  async handler(ctx, input) {
    return change(ctx, input.signalId, 'reviewed', () => ({ review_status: input.review_status, review_note: input.note ?? null, reviewed_by: actorOf(ctx), reviewed_at: new Date() }), { review_status: input.review_status });
  },
});

export const linkSignal = capability({
  name: 'evidence.link',
  title: 'Link an evidence card to a work item',
  description: 'Links the card to a work item of the same project (replacing an earlier link). Linked evidence resolves when the item\'s issue closes.',
  input: z.strictObject({ signalId: SignalIdParam, task_id: TaskIdParam }),
  output: Out,
  annotations: updates,
  scope: 'write',
  access: 'project',
  rest: { method: 'POST', path: 'P/signals/:signalId/link' },
  async handler(ctx, input) {
    await inTransaction(ctx.services.db.pool, (sql) => linkSignals(ctx, [input.signalId], input.task_id, sql));
    return { signal: await fullSignal(ctx, await findSignal(ctx, input.signalId)) };
  },
});

export const unlinkSignal = capability({
  name: 'evidence.unlink',
  title: 'Unlink an evidence card',
  description:
    'Removes the card\'s link to its work item. ' +
    'Use it when a card was linked to the wrong work item; the card stays, and evidence.link attaches it elsewhere.',
  input: z.strictObject({ signalId: SignalIdParam }),
  output: Out,
  annotations: updates,
  scope: 'write',
  access: 'project',
  rest: { method: 'POST', path: 'P/signals/:signalId/unlink' },
  async handler(ctx, input) {
    const s = await findSignal(ctx, input.signalId);
    await inTransaction(ctx.services.db.pool, async (sql) => {
      await sql.query(`DELETE FROM signal_task_links WHERE signal_id = $1`, [s.id]);
      await logActivity(ctx, { type: 'signal', id: s.id }, 'unlinked', null, sql);
    });
    return { signal: await fullSignal(ctx, s) };
  },
});

export const bulkLink = capability({
  name: 'evidence.bulk_link',
  title: 'Link many evidence cards to a work item',
  description: `Links up to ${MAX_BULK} cards to one work item. All or nothing: if any card or the item is not in this project, nothing changes.`,
  input: z.strictObject({ signal_ids: SignalIds, task_id: TaskIdParam }),
  output: z.object({ linked: z.number().int(), task_id: z.string() }),
  annotations: updates,
  scope: 'write',
  access: 'project',
  rest: { method: 'POST', path: 'P/signals/bulk-link' },
  async handler(ctx, input) {
    await inTransaction(ctx.services.db.pool, (sql) => linkSignals(ctx, input.signal_ids, input.task_id, sql));
    return { linked: new Set(input.signal_ids).size, task_id: input.task_id };
  },
});

async function deleteSignals(ctx: Ctx, ids: string[]) {
  await inTransaction(ctx.services.db.pool, async (sql) => {
    const rows = await signalsInProject(ctx, ids, sql, true);
    await logActivities(ctx, 'signal', rows.map((s) => ({ id: s.id, data: { quote: s.quote } })), 'deleted', sql);
    await sql.query(`DELETE FROM signals WHERE id = ANY($1)`, [rows.map((r) => r.id)]);
    const interviews = [...new Set(rows.map((r) => r.interview_id))];
    await recount(sql, interviews);
  });
}

export const deleteSignal = capability({
  name: 'evidence.delete',
  title: 'Delete an evidence card',
  description:
    'Deletes a card for good (dismissing is the reversible way to set it aside). ' +
    'Use it only for a card that should not exist at all, such as a duplicate or a mistake; to set a card aside, use evidence.dismiss.',
  input: z.strictObject({ signalId: SignalIdParam }),
  output: Success,
  annotations: deletes,
  scope: 'write',
  access: 'project',
  rest: { method: 'DELETE', path: 'P/signals/:signalId' },
  async handler(ctx, input) {
    await deleteSignals(ctx, [input.signalId]);
    return { success: true };
  },
});

export const bulkDelete = capability({
  name: 'evidence.bulk_delete',
  title: 'Delete many evidence cards',
  description: `Deletes up to ${MAX_BULK} cards. All or nothing: if any id is not a card of this project, nothing is deleted.`,
  input: z.strictObject({ signal_ids: SignalIds }),
  output: z.object({ success: z.boolean(), deleted: z.number().int() }),
  annotations: deletes,
  scope: 'write',
  access: 'project',
  rest: { method: 'POST', path: 'P/signals/bulk-delete' },
  async handler(ctx, input) {
    await deleteSignals(ctx, input.signal_ids);
    return { success: true, deleted: new Set(input.signal_ids).size };
  },
});

export const createManualSignal = capability({
  name: 'evidence.create_manual',
  title: 'Add a manual evidence correction',
  description:
    'Adds a researcher\'s evidence card to an interview, marked needs_review. The quote should be copied from the transcript; one that ' +
    'cannot be found is kept but marked transcript_uncertain, at timestamp_ms when given (a moment of a recording with no speech there). ' +
    'A card with a moment in a screen recording gets the text on screen then, as extracted cards do.',
  input: z.strictObject({
    sessionId: SessionIdParam,
    signal_type: z.enum(SIGNAL_TYPES),
    quote: z.string().trim().min(1).max(4000),
    target_surface: z.enum(TARGET_SURFACES).default('product_under_test'),
    confidence: z.number().min(0).max(1).default(0.8),
    headline: z.string().trim().min(1).max(200).optional(),
    claim: z.string().trim().min(1).max(2000).optional(),
    note: z.string().trim().max(2000).optional(),
    timestamp_ms: z.number().int().min(0).max(24 * 3600 * 1000).optional().describe('Where in the recording, for a quote not found in the transcript; a quote that is found keeps its own moment'),
  }),
  output: Out,
  annotations: creates,
  scope: 'write',
  access: 'project',
  rest: { method: 'POST', path: 'P/sessions/:sessionId/signals', status: 201 },
  async handler(ctx, input) {
    const interview = await findInterview(ctx, input.sessionId);
    const { project } = projectOf(ctx);
    const where = locate(await turnsOf(ctx.services.db.pool, interview.id), input.quote, null);
    const id = newId('sig');
    const [placed] = await withScreenContext(ctx.services, interview.id, [
      { timestamp_ms: where ? where.timestamp_ms : (input.timestamp_ms ?? null), page_title: null, observed_facts_json: JSON.stringify([`The participant said: "${where?.quote ?? input.quote}"`]) },
    ]);
    await inTransaction(ctx.services.db.pool, async (sql) => {
      await signals.insert(sql, {
        id,
        project_id: project.id,
        interview_id: interview.id,
        signal_type: input.signal_type,
        target_surface: input.target_surface,
        confidence: input.confidence,
        quote: where?.quote ?? input.quote,
        segment_id: where?.segment_id ?? null,
        timestamp_ms: placed.timestamp_ms,
        page_title: placed.page_title,
        window_start_ms: where?.window_start_ms ?? null,
        window_end_ms: where?.window_end_ms ?? null,
        transcript_uncertain: !where || where.uncertain,
        transcript_uncertainty_note: !where ? 'Entered manually; not found in the transcript' : where.note,
        headline: input.headline ?? null,
        claim: input.claim ?? null,
        observed_facts_json: placed.observed_facts_json,
        evidence_grade: where && !where.uncertain ? 'direct' : 'weak',
        review_status: 'needs_review',
        review_note: input.note ?? null,
        source: 'manual',
        manual: true,
        created_by: actorOf(ctx),
      });
      await recount(sql, [interview.id]);
      await logActivity(ctx, { type: 'signal', id }, 'created', { manual: true }, sql);
      await detectRecurrence(sql, project.id, [id]);
    });
    return { signal: await fullSignal(ctx, await findSignal(ctx, id)) };
  },
});

export const reviewRecurrence = capability({
  name: 'evidence.review_recurrence',
  title: 'Confirm or dismiss a recurrence candidate',
  description:
    'Decides whether a card really is the return of a problem a done work item fixed: confirmed or dismissed. ' +
    'Use it on a card that evidence.get lists with recurrence candidates, once you have compared it with the fixed item\'s evidence.',
  input: z.strictObject({ signalId: SignalIdParam, candidateId: z.string().min(1).max(64), status: z.enum(['confirmed', 'dismissed']) }),
  output: Out,
  annotations: updates,
  scope: 'write',
  access: 'project',
  rest: { method: 'POST', path: 'P/signals/:signalId/recurrence/:candidateId' },
  async handler(ctx, input) {
    const s = await findSignal(ctx, input.signalId);
    await inTransaction(ctx.services.db.pool, async (sql) => {
      const { rowCount } = await sql.query(
        `UPDATE recurrence_candidates SET status = $1, reviewed_at = now(), reviewed_by = $2 WHERE id = $3 AND signal_id = $4`,
        [input.status, actorOf(ctx), input.candidateId, s.id],
      );
      if (!rowCount) throw new NotFoundError('Recurrence candidate not found');
      await logActivity(ctx, { type: 'signal', id: s.id }, `recurrence_${input.status}`, { candidate_id: input.candidateId }, sql);
    });
    return { signal: await fullSignal(ctx, s) };
  },
});
