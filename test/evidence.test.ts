import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './helpers/service.ts';
import { importedInterview, ownerWithProject, postForm, settled } from './helpers/fixtures.ts';
import { form } from './helpers/media.ts';
import { starterInterview } from './helpers/starter-interview.ts';
import { CaseFile } from '../tools/evidence/record.ts';

let svc: TestService;
let o: Awaited<ReturnType<typeof ownerWithProject>>;
let sessionA: string;
let sessionB: string;
let cards: any[];

beforeAll(async () => {
  svc = await startTestService({ env: { WORKER: 'on' } });
  o = await ownerWithProject(svc, 'evidence@example.com');
  sessionA = await importedInterview(svc, o, 'checkout.txt');
  sessionB = await importedInterview(svc, o, 'invoicing.txt');
  cards = (await o.call('GET', '/signals?limit=200')).body.signals;
});
afterAll(() => svc?.stop());

describe('evidence cards', () => {
  it('lists with every filter', async () => {
    const all = (await o.call('GET', '/signals?limit=200')).body;
    expect(all.total).toBe(cards.length);
    expect((await o.call('GET', '/signals')).body.signals).toHaveLength(Math.min(20, cards.length));
    const struggles = (await o.call('GET', '/signals?type=struggling_moment&limit=200')).body;
    expect(struggles.signals.every((s: any) => s.signal_type === 'struggling_moment')).toBe(true);
    expect(struggles.total).toBe(cards.filter((c) => c.signal_type === 'struggling_moment').length);
    expect((await o.call('GET', `/signals?session_id=${sessionA}&limit=200`)).body.total).toBe(cards.filter((c) => c.session_id === sessionA).length);
    const search = (await o.call('GET', '/signals?search=discount&limit=200')).body;
    expect(search.total).toBeGreaterThan(0);
    expect(search.signals.every((s: any) => /discount/i.test(`${s.quote} ${s.headline} ${s.claim}`))).toBe(true);
    const confident = (await o.call('GET', '/signals?min_confidence=0.9&limit=200')).body;
    expect(confident.signals.every((s: any) => s.confidence >= 0.9)).toBe(true);
    expect((await o.call('GET', '/signals?target_surface=product_under_test&limit=200')).body.total).toBeGreaterThan(0);
    expect((await o.call('GET', '/signals?task_id=none&limit=200')).body.total).toBe(cards.length);
    const bad = await o.call('GET', '/signals?min_confidence=abc');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/min_confidence/);
    expect((await o.call('GET', '/signals?type=happiness')).status).toBe(400);
  });

  it('reads a card with its case file, which validates against SPEC 2.6.2', async () => {
    const res = await o.call('GET', `/signals/${cards[0].id}`);
    expect(res.status).toBe(200);
    const s = res.body.signal;
    expect(s).toMatchObject({ linked_task: null, evidence_resolution: null, recurrence_candidates: [], provenance: { interview: { id: s.session_id } } });
    const parsed = CaseFile.safeParse(s.case_file);
    expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
    expect(s.case_file.evidence_card).toMatchObject({ contract_version: 'pipeline.v1', artifact_kind: 'evidence_card', artifact_id: s.id });
    expect((await o.call('GET', '/signals/sig_doesnotexist')).status).toBe(404);
  });

  it('annotates, dismisses, restores and reviews, keeping who and when', async () => {
    const id = cards[0].id;
    const tooLong = await o.call('POST', `/signals/${id}/annotate`, { text: 'x'.repeat(2001) });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error).toMatch(/text: .*2000/);
    const ok = await o.call('POST', `/signals/${id}/annotate`, { text: 'x'.repeat(2000) });
    expect(ok.body.signal).toMatchObject({ annotation_by: o.userId, annotation_at: expect.any(String) });
    const dismissed = await o.call('POST', `/signals/${id}/dismiss`, { reason: 'Small talk' });
    expect(dismissed.body.signal).toMatchObject({ dismissed_reason: 'Small talk', dismissed_by: o.userId, dismissed_at: expect.any(String) });
    expect((await o.call('GET', '/signals?limit=200')).body.total).toBe(cards.length - 1);
    expect((await o.call('GET', '/signals?dismissed=true')).body.signals.map((s: any) => s.id)).toEqual([id]);
    // The interview's count is of the cards still in play, as the lists and the interview page show them.
    const countOf = async () => (await o.call('GET', `/sessions/${cards[0].session_id}`)).body.session.evidence_count;
    const own = cards.filter((c) => c.session_id === cards[0].session_id).length;
    expect(await countOf()).toBe(own - 1);
    expect((await o.call('POST', `/signals/${id}/dismiss`, {})).status).toBe(400);
    expect((await o.call('POST', `/signals/${id}/undismiss`)).body.signal.dismissed_at).toBeNull();
    expect(await countOf()).toBe(own);
    const reviewed = await o.call('POST', `/signals/${id}/review`, { note: 'Checked against the recording' });
    expect(reviewed.body.signal).toMatchObject({ review_status: 'reviewed', review_note: 'Checked against the recording' });
    const { rows: rows } = await svc.services.db.pool.query(`SELECT action, actor_id FROM activity WHERE subject_id = $1 ORDER BY id`, [id]);
    expect((rows as any[]).map((r) => r.action)).toEqual(['annotated', 'dismissed', 'undismissed', 'reviewed']);
    expect((rows as any[]).every((r) => r.actor_id === o.userId)).toBe(true);
  });

  it('updates fields, and takes a new quote only from the transcript', async () => {
    // Not a discount-code card: it gets a new quote, and the recurrence test below needs those intact.
    const id = cards.find((c) => c.session_id === sessionA && c.id !== cards[0].id && !/discount/.test(c.quote)).id;
    const upd = await o.call('PATCH', `/signals/${id}`, { signal_type: 'workaround', confidence: 0.55, headline: 'Renamed', annotation: 'Agent note' });
    expect(upd.body.signal).toMatchObject({ signal_type: 'workaround', confidence: 0.55, headline: 'Renamed', annotation_text: 'Agent note' });
    expect((await o.call('PATCH', `/signals/${id}`, { quote: 'Words nobody ever said in this call.' })).body.code).toBe('quote_not_in_transcript');
    const real = await o.call('PATCH', `/signals/${id}`, { quote: 'I scrolled up and down for ages.' });
    expect(real.body.signal.quote).toBe('I scrolled up and down for ages.');
    expect((await o.call('PATCH', `/signals/${id}`, { confidence: 2 })).status).toBe(400);
    expect((await o.call('PATCH', `/signals/${id}`, { dismissed: true })).status).toBe(400);
    // SPEC 4.8's own names: type, analysis, context; a new type brings its own outcome, unless the outcome was set by hand.
    const spec = await o.call('PATCH', `/signals/${id}`, { type: 'critical_error', analysis: 'Lost in the menu', context: 'Exporting a report' });
    expect(spec.body.signal).toMatchObject({ signal_type: 'critical_error', reconstruction: 'Lost in the menu', user_goal: 'Exporting a report', outcome: 'blocked' });
    expect((await o.call('PATCH', `/signals/${id}`, { type: 'emotional_response' })).body.signal).toMatchObject({ signal_type: 'emotional_response', outcome: null });
    await o.call('PATCH', `/signals/${id}`, { outcome: 'finished later' });
    expect((await o.call('PATCH', `/signals/${id}`, { type: 'workaround' })).body.signal.outcome).toBe('finished later');
    const both = await o.call('PATCH', `/signals/${id}`, { type: 'workaround', signal_type: 'critical_error' });
    expect(both.status).toBe(400);
    expect(both.body.error).toMatch(/^type: /);
    // An empty value and null both clear a field: the same under either name.
    const cleared = await o.call('PATCH', `/signals/${id}`, { context: '', user_goal: null });
    expect(cleared.status, JSON.stringify(cleared.body)).toBe(200);
    expect(cleared.body.signal.user_goal ?? '').toBe('');
  });

  it('links, unlinks and bulk-links to work items of the same project only, all or nothing', async () => {
    const task = (await o.call('POST', '/tasks', { title: 'Move the discount field', priority_score: 85 })).body.task;
    expect(task).toMatchObject({ priority_label: 'critical', status: 'backlog', review_packet: false });
    const linked = await o.call('POST', `/signals/${cards[2].id}/link`, { task_id: task.id });
    expect(linked.body.signal.linked_task).toMatchObject({ id: task.id, title: 'Move the discount field', status: 'backlog' });
    expect(linked.body.signal.evidence_resolution).toMatchObject({ task_id: task.id, resolved_at: null });
    expect((await o.call('GET', `/signals?task_id=${task.id}`)).body.total).toBe(1);

    const other = await ownerWithProject(svc, 'evidence-other@example.com');
    const foreignTask = (await other.call('POST', '/tasks', { title: 'Theirs' })).body.task;
    expect((await o.call('POST', `/signals/${cards[3].id}/link`, { task_id: foreignTask.id })).status).toBe(404);

    const otherSession = await importedInterview(svc, other, 'support.json');
    const foreignCard = (await other.call('GET', `/signals?session_id=${otherSession}`)).body.signals[0].id;
    const mixed = await o.call('POST', '/signals/bulk-link', { signal_ids: [cards[3].id, cards[4].id, foreignCard], task_id: task.id });
    expect(mixed.status).toBe(404);
    expect(mixed.body.error).toContain(foreignCard);
    expect((await o.call('GET', `/signals?task_id=${task.id}`)).body.total).toBe(1);
    const bulk = await o.call('POST', '/signals/bulk-link', { signal_ids: [cards[3].id, cards[4].id], task_id: task.id });
    expect(bulk.body).toEqual({ linked: 2, task_id: task.id });
    expect((await o.call('GET', `/tasks/${task.id}`)).body.task.evidence_count).toBe(3);
    const thousand = await o.call('POST', '/signals/bulk-link', { signal_ids: Array.from({ length: 1000 }, (_, i) => `sig_${i}`), task_id: task.id });
    expect(thousand.status).toBe(400);
    expect(thousand.body.error).toMatch(/signal_ids/);
    expect((await o.call('POST', `/signals/${cards[2].id}/unlink`)).body.signal.linked_task).toBeNull();
    expect((await o.call('GET', '/signals?task_id=none&limit=200')).body.total).toBe(cards.length - 2);
  });

  it('adds manual corrections scoped to an interview, needing review', async () => {
    const res = await o.call('POST', `/sessions/${sessionA}/signals`, { signal_type: 'desired_outcome', quote: 'It would save so much time.' });
    expect(res.status).toBe(201);
    expect(res.body.signal).toMatchObject({ session_id: sessionA, review_status: 'needs_review', transcript_uncertain: false, source: 'manual' });
    const invented = await o.call('POST', `/sessions/${sessionA}/signals`, { signal_type: 'desired_outcome', quote: 'Please add dark mode.' });
    expect(invented.body.signal).toMatchObject({ transcript_uncertain: true, transcript_uncertainty_note: expect.stringContaining('not found') });
    expect((await o.call('GET', `/sessions/${sessionA}/processing`)).body.evidence_count).toBe(cards.filter((c) => c.session_id === sessionA).length + 2);
  });

  it('deletes one and many, all or nothing', async () => {
    const foreign = 'sig_not_mine';
    // Keep the discount-code cards: the recurrence test below needs one.
    const victims = cards.filter((c) => !/discount/.test(c.quote)).slice(-3);
    expect(cards.indexOf(victims[0])).toBeGreaterThan(12);
    const before = (await o.call('GET', '/signals?limit=200')).body.total;
    expect((await o.call('POST', '/signals/bulk-delete', { signal_ids: [victims[0].id, foreign] })).status).toBe(404);
    expect((await o.call('GET', '/signals?limit=200')).body.total).toBe(before);
    expect((await o.call('POST', '/signals/bulk-delete', { signal_ids: [victims[0].id, victims[1].id] })).body).toEqual({ success: true, deleted: 2 });
    expect((await o.call('DELETE', `/signals/${victims[2].id}`)).body).toEqual({ success: true });
    expect((await o.call('GET', '/signals?limit=200')).body.total).toBe(before - 3);
    expect((await o.call('DELETE', `/signals/${victims[2].id}`)).status).toBe(404);
  });

  it('saves a change and its activity together or not at all, and serialises concurrent changes', async () => {
    const [first, second] = cards.filter((c) => c.session_id === sessionB && !/discount/.test(c.quote));
    const activityOf = async (id: string) => (await svc.services.db.pool.query(`SELECT action, data FROM activity WHERE subject_id = $1 ORDER BY id`, [id])).rows;
    const logged = (await activityOf(first.id)).length;
    const before = (await o.call('GET', `/signals/${first.id}`)).body.signal;
    // The activity insert fails after the card was updated in the same transaction: the update must not stay.
    await svc.services.db.pool.query(`CREATE FUNCTION refuse_activity() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused'; END $$`);
    await svc.services.db.pool.query(`CREATE TRIGGER refuse_activity BEFORE INSERT ON activity FOR EACH ROW WHEN (NEW.subject_id = '${first.id}') EXECUTE FUNCTION refuse_activity()`);
    try {
      expect((await o.call('POST', `/signals/${first.id}/annotate`, { text: 'Never saved' })).status).toBe(500);
      expect((await o.call('POST', '/signals/bulk-delete', { signal_ids: [second.id, first.id] })).status).toBe(500);
    } finally {
      await svc.services.db.pool.query(`DROP TRIGGER refuse_activity ON activity; DROP FUNCTION refuse_activity()`);
    }
    expect((await o.call('GET', `/signals/${first.id}`)).body.signal).toEqual(before);
    expect((await o.call('GET', `/signals/${second.id}`)).status).toBe(200);
    expect(await activityOf(first.id)).toHaveLength(logged);

    // Twenty changes of one card at once, each reading the transcript inside its transaction: all land, one after another.
    const notes = Array.from({ length: 20 }, (_, i) => `Note ${i}`);
    const answers = await Promise.all(notes.map((text, i) => o.call('PATCH', `/signals/${first.id}`, { annotation: text, ...(i % 2 ? { quote: first.quote } : {}) })));
    expect(answers.map((a) => a.status)).toEqual(notes.map(() => 200));
    expect((await activityOf(first.id)).slice(logged).map((a) => a.action)).toEqual(notes.map(() => 'updated'));
    expect(notes).toContain((await o.call('GET', `/signals/${first.id}`)).body.signal.annotation_text);

    // A work item made from evidence that includes another project's card is not made, and logs nothing.
    const tasksBefore = (await o.call('GET', '/tasks')).body.tasks.length;
    expect((await o.call('POST', '/tasks/from-signals', { signal_ids: [second.id, 'sig_not_mine'] })).status).toBe(404);
    expect((await o.call('GET', '/tasks')).body.tasks.length).toBe(tasksBefore);
    const secondLogged = (await activityOf(second.id)).length;
    expect((await o.call('POST', '/tasks/from-signals', { signal_ids: [second.id, first.id] })).status).toBe(201);
    const packet = (await o.call('GET', '/tasks')).body.tasks.find((t: any) => t.review_packet && t.evidence_count === 2);
    expect((await activityOf(second.id)).slice(secondLogged)).toEqual([{ action: 'linked', data: { task_id: packet.id } }]);
  });
});

describe('work items', () => {
  it('derives priority labels at every threshold and recomputes them on change', async () => {
    for (const [score, label] of [[80, 'critical'], [79.9, 'high'], [60, 'high'], [40, 'medium'], [39, 'low'], [0, 'low']] as const) {
      expect((await o.call('POST', '/tasks', { title: `P${score}`, priority_score: score })).body.task.priority_label).toBe(label);
    }
    const t = (await o.call('POST', '/tasks', { title: 'Shifting', priority_score: 10 })).body.task;
    expect((await o.call('PATCH', `/tasks/${t.id}`, { priority_score: 65 })).body.task.priority_label).toBe('high');
    expect((await o.call('POST', '/tasks', { title: 'x', priority_score: 101 })).status).toBe(400);
  });

  it('enforces status moves and lists ready work by priority', async () => {
    const t = (await o.call('POST', '/tasks', { title: 'Fix export', priority_score: 90 })).body.task;
    const move = (status: string) => o.call('PATCH', `/tasks/${t.id}`, { status });
    expect((await move('done')).status).toBe(422);
    expect((await move('ready')).body.task.status).toBe('ready');
    const low = (await o.call('POST', '/tasks', { title: 'Polish', priority_score: 20, status: 'ready' })).body.task;
    const ready = (await o.call('GET', '/tasks/ready?limit=1')).body.tasks;
    expect(ready.map((x: any) => x.id)).toEqual([t.id]);
    expect((await o.call('GET', '/tasks/ready')).body.tasks.map((x: any) => x.id)).toEqual([t.id, low.id]);
    expect((await move('in_progress')).body.task.status).toBe('in_progress');
    expect((await move('done')).body.task).toMatchObject({ status: 'done', completed_at: expect.any(String) });
    expect((await move('ready')).status).toBe(422);
    expect((await move('in_progress')).body.task.completed_at).toBeNull();
    expect((await o.call('GET', '/tasks?status=in_progress')).body.tasks.map((x: any) => x.id)).toContain(t.id);
  });

  it('creates evidence review packets that stay out of delivery until promoted', async () => {
    const ids = [cards[8].id, cards[9].id];
    const packet = await o.call('POST', '/tasks/from-signals', { signal_ids: ids });
    expect(packet.status).toBe(201);
    expect(packet.body.task).toMatchObject({ review_packet: true, evidence_count: 2 });
    const id = packet.body.task.id;
    await o.call('PATCH', `/tasks/${id}`, { status: 'ready' });
    expect((await o.call('GET', '/tasks/ready?limit=100')).body.tasks.map((x: any) => x.id)).not.toContain(id);
    expect((await o.call('GET', `/tasks/${id}`)).body.evidence.map((e: any) => e.id).sort()).toEqual([...ids].sort());
    expect((await o.call('POST', `/tasks/${id}/promote`)).body.task.review_packet).toBe(false);
    expect((await o.call('GET', '/tasks/ready?limit=100')).body.tasks.map((x: any) => x.id)).toContain(id);
    expect((await o.call('POST', `/tasks/${id}/promote`)).status).toBe(422);
    expect((await o.call('DELETE', `/tasks/${id}`)).body).toEqual({ success: true });
    expect((await o.call('GET', `/signals/${ids[0]}`)).body.signal.linked_task).toBeNull();
  });
});

describe('findings', () => {
  it('creates from evidence as a draft with counts that match the evidence, and moves only forward', async () => {
    // Two cards of one interview that no earlier test deletes or links, and one of the other interview.
    const deleted = new Set(cards.filter((c) => !/discount/.test(c.quote)).slice(-3).map((c) => c.id));
    const inA = cards.filter((c, i) => i > 9 && c.session_id === sessionA && !deleted.has(c.id));
    const ids = [inA[0].id, inA[1].id, cards.find((c) => c.session_id === sessionB).id];
    const created = await o.call('POST', '/findings/from-evidence', { title: 'Checkout hides what people look for', evidence_refs: ids });
    expect(created.status).toBe(201);
    const f = created.body.finding;
    expect(f).toMatchObject({ research_state: 'draft', delivery_state: 'not_sent', provider_placement: null, evidence_count: 3, priority_label: 'medium' });
    expect(f.interview_count).toBe(new Set(ids.map((i) => cards.find((c) => c.id === i).session_id)).size);
    const read = (await o.call('GET', `/findings/${f.finding_ref}`)).body;
    expect(read.evidence.map((e: any) => e.id).sort()).toEqual([...ids].sort());

    await o.call('POST', `/signals/${ids[0]}/dismiss`, { reason: 'Duplicate' });
    expect((await o.call('GET', `/findings/${f.finding_ref}`)).body.finding.evidence_count).toBe(2);
    await o.call('POST', `/signals/${ids[0]}/undismiss`);
    const removed = await o.call('PATCH', `/findings/${f.finding_ref}`, { remove_evidence: [ids[2]], priority_score: 70 });
    expect(removed.body.finding).toMatchObject({ evidence_count: 2, interview_count: 1, priority_label: 'high' });

    const draftToClosed = await o.call('PATCH', `/findings/${f.finding_ref}`, { research_state: 'closed' });
    expect(draftToClosed.status).toBe(422);
    expect((await o.call('PATCH', `/findings/${f.finding_ref}`, { research_state: 'reviewed' })).body.finding.research_state).toBe('reviewed');
    expect((await o.call('GET', '/tasks?limit=200')).body.tasks.filter((t: any) => t.finding_ref === f.finding_ref)).toEqual([]);
    expect((await o.call('PATCH', `/findings/${f.finding_ref}`, { research_state: 'closed' })).body.finding.research_state).toBe('closed');
    const back = await o.call('PATCH', `/findings/${f.finding_ref}`, { research_state: 'draft' });
    expect(back.status).toBe(422);
    expect(back.body.code).toBe('finding_state_transition_invalid');
    expect((await o.call('PATCH', `/findings/${f.finding_ref}`, { title: 'Changed' })).status).toBe(422);
  });

  it('creates directly, refuses review without evidence, lists with filters and deletes', async () => {
    const empty = (await o.call('POST', '/findings', { title: 'Hunch about pricing', priority_score: 30 })).body.finding;
    expect(empty.evidence_count).toBe(0);
    expect((await o.call('PATCH', `/findings/${empty.finding_ref}`, { research_state: 'reviewed' })).body.code).toBe('finding_without_evidence');
    expect((await o.call('POST', '/findings/from-evidence', { title: 'x', evidence_refs: [] })).status).toBe(400);
    expect((await o.call('POST', '/findings/from-evidence', { title: 'x', evidence_refs: ['sig_nope'] })).status).toBe(404);
    // A dismissed card makes no finding (an agent's walkthrough got one of evidence_count 0), and nothing is written.
    const gone = (await o.call('GET', '/signals?dismissed=true&limit=1')).body.signals[0] ?? null;
    const any = (await o.call('GET', '/signals?limit=1')).body.signals[0];
    const dismissedId = gone?.id ?? (await o.call('POST', `/signals/${any.id}/dismiss`, { reason: 'Duplicate' })).body.signal.id;
    const before = (await o.call('GET', '/findings')).body.total;
    expect(await o.call('POST', '/findings/from-evidence', { title: 'Made of nothing', evidence_refs: [dismissedId] })).toMatchObject({ status: 400, body: { code: 'evidence_dismissed', action: expect.stringContaining('undismiss') } });
    expect((await o.call('GET', '/findings')).body.total).toBe(before);
    expect((await o.call('GET', '/findings?research_state=draft')).body.findings.map((f: any) => f.finding_ref)).toEqual([empty.finding_ref]);
    expect((await o.call('GET', '/findings?min_priority=50')).body.total).toBe(1);
    expect((await o.call('GET', '/findings?search=pricing')).body.findings.map((f: any) => f.title)).toEqual(['Hunch about pricing']);
    expect((await o.call('DELETE', `/findings/${empty.finding_ref}`)).body).toEqual({ success: true });
    expect((await o.call('GET', `/findings/${empty.finding_ref}`)).status).toBe(404);
  });
});

describe('page context', () => {
  it('gives evidence from a widget interview the page it ran on, without its query or fragment', async () => {
    const id = await starterInterview(
      svc,
      o.project.public_key,
      {
        context: ['Last Tuesday I had to send twelve invoices to clients, and I was so frustrated because the PDF export kept timing out on me.'],
        friction: ['The export dialog froze for about a minute before anything happened.', 'I ended up printing each invoice to PDF by hand.'],
        value: ['I really wish there was a bulk export, because I need to send all my invoices at once.'],
      },
      { page_url: 'https://shop.example/app/invoices?token=s3cret#row-4', page_title: 'Invoices · Shop' },
    );
    expect((await settled(o.call, id)).status).toBe('processed');
    const page = { url: 'https://shop.example/app/invoices', title: 'Invoices · Shop' };
    const list = (await o.call('GET', `/signals?session_id=${id}&limit=200`)).body.signals;
    expect(list.length).toBeGreaterThan(0);
    for (const card of list) expect(card).toMatchObject({ page_url: page.url, page_title: page.title });
    const card = (await o.call('GET', `/signals/${list[0].id}`)).body.signal;
    expect(card.provenance.page).toEqual(page);
    expect(card.case_file.evidence_card.evidence).toMatchObject({ page_url: page.url, page_title: page.title });
    expect(CaseFile.safeParse(card.case_file).success).toBe(true);
    // An imported transcript ran on no page.
    expect(cards.every((c) => c.page_url === null)).toBe(true);
    // Only http(s) pages.
    const created = await svc.api('POST', '/api/sdk/sessions', { body: { study_id: 'starter-study', interview_mode: 'text' }, headers: { 'x-project-key': o.project.public_key } });
    const other = created.body.session.id;
    await svc.api('POST', `/api/sdk/sessions/${other}/consent`, { body: { consent_recording: false, consent_data_use: true }, headers: { 'x-project-key': o.project.public_key } });
    const bad = await svc.api('POST', `/api/sdk/conductor/${other}/start`, { body: { page_url: 'javascript:alert(1)' }, headers: { 'x-project-key': o.project.public_key } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/page_url/);
  });
});

describe('recurrence and coverage', () => {
  it('flags new evidence that resembles evidence a done work item resolved, and takes a verdict', async () => {
    const fixed = (await o.call('POST', '/tasks', { title: 'Make the discount field visible', status: 'ready' })).body.task;
    // Read afresh: earlier tests delete cards, and which ones depends on their order.
    const card = (await o.call('GET', `/signals?session_id=${sessionA}&search=discount&limit=200`)).body.signals.find((c: any) => /discount code/.test(c.quote));
    await o.call('POST', `/signals/${card.id}/link`, { task_id: fixed.id });
    await o.call('PATCH', `/tasks/${fixed.id}`, { status: 'in_progress' });
    await o.call('PATCH', `/tasks/${fixed.id}`, { status: 'done' });
    // The same complaint comes back in a new interview.
    const again = await importedInterview(svc, o, 'checkout.txt');
    const returning = (await o.call('GET', `/signals?session_id=${again}&search=discount`)).body.signals.find((s: any) => /discount code/.test(s.quote));
    const read = (await o.call('GET', `/signals/${returning.id}`)).body.signal;
    expect(read.recurrence_candidates).toHaveLength(1);
    expect(read.recurrence_candidates[0]).toMatchObject({ related_task_id: fixed.id, related_resolved_signal_id: card.id, status: 'candidate', related_task: { title: 'Make the discount field visible', status: 'done' } });
    expect(read.recurrence_candidates[0].confidence).toBeGreaterThan(0.9);
    const verdict = await o.call('POST', `/signals/${returning.id}/recurrence/${read.recurrence_candidates[0].id}`, { status: 'confirmed' });
    expect(verdict.body.signal.recurrence_candidates[0]).toMatchObject({ status: 'confirmed', reviewed_at: expect.any(String) });
    expect(CaseFile.safeParse(verdict.body.signal.case_file).success).toBe(true);
  });

  it('backfills recurrence for existing evidence as an operator job', async () => {
    expect((await svc.api('POST', '/api/admin/embed-backfill', { token: o.token, body: {} })).status).toBe(403);
    const admin = await svc.login('operator@example.com', { admin: true });
    const res = await svc.api('POST', '/api/admin/embed-backfill', { token: admin.token, body: {} });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ queued: true, job_key: 'embed-backfill:all' });
  });

  it('lists study goals that no evidence addresses', async () => {
    const study = await o.call('POST', '/studies', {
      title: 'Checkout',
      status: 'active',
      visibility: { version: 1, enabled: false },
      script: {
        version: 2,
        goals: [
          { id: 'g1', description: 'discount code at checkout' },
          { id: 'g2', description: 'mobile notification settings' },
        ],
        segments: [{ id: 's', mode: 'talk', title: 'Ask', instruction: 'Ask about g1 and g2' }],
      },
    });
    expect(study.status).toBe(201);
    await importedInterview(svc, o, 'checkout.txt', { study_ref: 'checkout' });
    const gaps = (await o.call('GET', '/coverage-gaps')).body;
    const mine = gaps.gaps.filter((g: any) => g.study_handle === 'checkout');
    expect(mine.map((g: any) => g.goal_id)).toEqual(['g2']);
    expect(gaps.totals.goals).toBeGreaterThanOrEqual(2);
    const results = (await o.call('GET', '/studies/checkout/results')).body;
    expect(results.interviews).toMatchObject({ total: 1, processed: 1 });
    expect(results.evidence.total).toBeGreaterThan(3);
    expect(results.goals.find((g: any) => g.goal_id === 'g1').evidence_count).toBeGreaterThan(0);
  });

  it("counts an imported interview's card toward the goal of the guide question the interviewer asked before it", async () => {
    const study = await o.call('POST', '/studies', {
      title: 'Books',
      status: 'active',
      visibility: { version: 1, enabled: false },
      script: {
        version: 2,
        goals: [
          { id: 'g-close', description: 'Month-end close pain' },
          { id: 'g-switch', description: 'Reasons to change accounting tools' },
          { id: 'g-team', description: 'Who else takes part in approvals' },
        ],
        segments: [
          { id: 'close', mode: 'talk', title: 'Month end', instruction: 'Serves g-close. Ask how they closed the books last month and what slowed them down.' },
          { id: 'switch', mode: 'talk', title: 'Switching', instruction: 'Serves g-switch. Ask what would make them move to a different tool.' },
          { id: 'team', mode: 'talk', title: 'Team', instruction: 'Serves g-team. Ask who signs off on payments.' },
        ],
      },
    });
    expect(study.status, JSON.stringify(study.body)).toBe(201);
    // The team ran its own guide, in its own words; the answers share no words with the goals.
    const transcript = [
      'Interviewer: So how did you close the books last month? What slowed you down?',
      'Dana: The bank feed dropped three days of transactions, so I typed every line in by hand. It took me the whole weekend and I was furious.',
      'Interviewer: What would make you move to a different tool?',
      "Dana: If it drops the feed again I'm cancelling, straight away. I really wish it warned me the moment the feed stops.",
      'Interviewer: Anything else before we finish?',
      'Dana: Yes, the mobile app crashed every time I attached a receipt photo, so I lost two expense claims.',
    ].join('\n');
    const res = await postForm(svc, o.token, `${o.P}/sessions/import-transcript`, form({ transcript: { buffer: Buffer.from(transcript), filename: 'books.txt', type: 'text/plain' }, study_ref: 'books' }));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect((await settled(o.call, res.body.session.id)).status).toBe('processed');
    const cards = (await o.call('GET', `/signals?session_id=${res.body.session.id}&limit=200`)).body.signals;
    const from = (line: number) => cards.filter((c: any) => transcript.split('\n')[line].includes(c.quote)).length;
    const { goals } = (await o.call('GET', '/studies/books/results')).body;
    const count = (id: string) => goals.find((g: any) => g.goal_id === id).evidence_count;
    expect([from(1), from(3)], JSON.stringify(cards.map((c: any) => c.quote))).toEqual([expect.any(Number), expect.any(Number)]);
    expect(from(1) * from(3)).toBeGreaterThan(0);
    expect([count('g-close'), count('g-switch')]).toEqual([from(1), from(3)]);
    // "Anything else?" is no question of the guide: the crash counts for no goal.
    expect(cards.some((c: any) => /crashed/.test(c.quote))).toBe(true);
    expect(count('g-team')).toBe(0);
  });

  it('counts a card toward the goals its script segment serves, once per goal', async () => {
    const counts = async () => {
      const { goals } = (await o.call('GET', '/studies/starter-study/results')).body;
      return ['g-context', 'g-friction', 'g-value'].map((id) => goals.find((g: any) => g.goal_id === id).evidence_count);
    };
    const before = await counts();
    // The starter study's segments name the goal they serve ("Serves g-friction. …").
    const id = await starterInterview(svc, o.project.public_key, {
      context: ['Last Tuesday I had to send twelve invoices to clients, and I was so frustrated because the PDF export kept timing out on me.'],
      friction: [
        'The export dialog froze for about a minute before anything happened, twice in a row, and it slowed me down and confused me.',
        'I expected a download right away, so I ended up printing each invoice to PDF by hand.',
      ],
      // Words of g-friction ("slowed … down … confused") in the value segment: it counts for g-value, where it was said.
      value: ['I really wish there was a bulk export, because sending them one by one slowed me down and confused me.'],
    });
    expect((await settled(o.call, id)).status).toBe('processed');
    const { messages } = (await o.call('GET', `/sessions/${id}`)).body.session;
    const cards = (await o.call('GET', `/signals?session_id=${id}&limit=200`)).body.signals;
    const segmentOf = (quote: string) => messages.find((m: any) => m.role === 'participant' && m.content.includes(quote))?.segment_id;
    const from = (...segments: string[]) => cards.filter((c: any) => segments.includes(segmentOf(c.quote))).length;
    // One card each from the context and value segments, two from friction; the first friction
    // card also shares the goal's words ("slowed … down … confused"), and still counts once.
    expect([from('context'), from('task', 'friction'), from('value')]).toEqual([1, 2, 1]);
    expect(await counts()).toEqual(before.map((n, i) => n + [1, 2, 1][i]));
    const gaps = (await o.call('GET', '/coverage-gaps')).body.gaps;
    expect(gaps.filter((g: any) => g.study_handle === 'starter-study')).toEqual([]);
  });
});
