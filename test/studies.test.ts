import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './helpers/service.ts';
import { ownerWithProject, validInvitation, validScript, visibility } from './helpers/fixtures.ts';

let svc: TestService;
let o: Awaited<ReturnType<typeof ownerWithProject>>;

beforeAll(async () => {
  svc = await startTestService();
  o = await ownerWithProject(svc, 'studies@example.com');
});
afterAll(() => svc?.stop());

describe('studies CRUD and status', () => {
  it('starts with the active starter study, whose script reviews clean', async () => {
    const list = await o.call('GET', '/studies');
    expect(list.status).toBe(200);
    expect(list.body.studies).toHaveLength(1);
    const starter = list.body.studies[0];
    // It comes with a passive invitation, so the widget shows its launcher on a fresh project.
    expect(starter).toMatchObject({ handle: 'starter-study', status: 'active', invitation_state: 'valid', visibility_state: 'absent', recruitment_url: null, intake_ref: null, project_ref: o.project.project_ref });
    expect(starter.invitation).toMatchObject({ presentation_mode: 'passive', launcher: { label: 'Share feedback', icon: 'feedback' }, panel: { headline: expect.any(String), cta: expect.any(String) } });
    expect(JSON.parse(starter.goals_json).length).toBeGreaterThanOrEqual(2);
    const review = await o.call('POST', '/studies/starter-study/review-script', {});
    expect(review.body).toMatchObject({ valid: true, errors: [], warnings: [] });
    // Every talk and observe segment yields questions for the participant, none of them generic.
    const script = JSON.parse(starter.script_json);
    const listening = script.segments.filter((s: any) => s.mode !== 'speak');
    expect(review.body.participant_questions.map((q: any) => q.segment_id)).toEqual(listening.map((s: any) => s.id));
    for (const q of review.body.participant_questions) {
      expect(q.questions.length).toBeGreaterThan(0);
      for (const text of q.questions) expect(text).toMatch(/\byou\b.*\?$/);
    }
    expect(review.body.participant_questions[0].questions).toEqual(['What did you come to do today?', 'What did you use for it before?', 'Could you tell me about the last time you did it?']);
  });

  it('creates a draft with the exact 2.9 record and reads it by ref or handle', async () => {
    const res = await o.call('POST', '/studies', { title: 'Checkout friction', goals: validScript.goals, script: validScript, description: 'Why people stop at payment' });
    expect(res.status).toBe(201);
    const s = res.body.study;
    expect(Object.keys(s).sort()).toEqual(
      ['allowed_origins', 'allowed_selectors', 'created_at', 'description', 'goals_json', 'handle', 'intake_auto_created', 'intake_ref', 'invitation', 'invitation_state', 'origin_guard_failure', 'project_ref', 'recruitment_url', 'ref', 'script_json', 'settings_json', 'status', 'title', 'updated_at', 'version', 'visibility', 'visibility_state'].sort(),
    );
    expect(s).toMatchObject({ handle: 'checkout-friction', status: 'draft', version: 1, settings_json: null });
    expect(JSON.parse(s.script_json)).toEqual(validScript);
    expect((await o.call('GET', `/studies/${s.ref}`)).body.study).toEqual(s);
    expect((await o.call('GET', '/studies/checkout-friction')).body.study).toEqual(s);
  });

  it('enforces status moves', async () => {
    const go = (status: string) => o.call('PATCH', '/studies/checkout-friction', { status });
    expect((await go('paused')).status).toBe(422);
    const bad = await go('paused');
    expect(bad.body.code).toBe('study_status_transition_invalid');
    // Going active collides with the untargeted starter study; give this one visibility first.
    expect((await o.call('PATCH', '/studies/checkout-friction', { visibility: visibility([['include', 'subtree', '/checkout']]) })).status).toBe(200);
    expect((await go('active')).body.study.status).toBe('active');
    expect((await go('paused')).body.study.status).toBe('paused');
    expect((await go('closed')).body.study.status).toBe('closed');
    expect((await go('active')).status).toBe(422);
    expect((await go('draft')).body.study.status).toBe('draft');
  });

  it('refuses reserved and taken handles with a suggestion', async () => {
    const reserved = await o.call('POST', '/studies', { title: 'X', handle: 'resolve-preview', script: validScript });
    expect(reserved.status).toBe(422);
    expect(reserved.body).toMatchObject({ code: 'STUDY_HANDLE_RESERVED', suggestion: 'resolve-preview-study' });
    const taken = await o.call('POST', '/studies', { title: 'X', handle: 'checkout-friction', script: validScript });
    expect(taken.status).toBe(409);
    expect(taken.body.suggestion).toBe('checkout-friction-2');
    expect(taken.body.code).toBeUndefined();
    const auto = await o.call('POST', '/studies', { title: 'Preview', script: validScript });
    expect(auto.body.study.handle).toBe('preview-2');
  });

  it('refuses a stale update or delete with a retryable conflict', async () => {
    const s = (await o.call('GET', '/studies/checkout-friction')).body.study;
    const fresh = await o.call('PATCH', '/studies/checkout-friction', { title: 'Checkout friction v2', expected_version: s.version });
    expect(fresh.status).toBe(200);
    expect(fresh.body.study.version).toBe(s.version + 1);
    const stale = await o.call('PATCH', '/studies/checkout-friction', { title: 'Lost update', expected_version: s.version });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ code: 'study_update_changed', retryable: true, action: expect.any(String) });
    const stalePlacement = await o.call('PATCH', '/studies/checkout-friction', { visibility: null, expected_version: s.version });
    expect(stalePlacement.body.code).toBe('study_placement_changed');
    const staleDelete = await o.call('DELETE', `/studies/checkout-friction?expected_version=${s.version}`);
    expect(staleDelete.status).toBe(409);
    expect(staleDelete.body).toMatchObject({ code: 'study_delete_changed', retryable: true });
    expect((await o.call('GET', '/studies/checkout-friction')).body.study.title).toBe('Checkout friction v2');
  });

  it('forbids deleting an active study, then deletes once paused', async () => {
    const active = await o.call('DELETE', '/studies/starter-study');
    expect(active.status).toBe(422);
    expect(active.body).toMatchObject({ code: 'active_study_delete_forbidden', action: expect.stringMatching(/pause|close/i) });
    const del = await o.call('DELETE', '/studies/preview-2');
    expect(del.body).toEqual({ success: true });
    expect((await o.call('GET', '/studies/preview-2')).status).toBe(404);
  });

  it('does not find another project\'s study', async () => {
    const other = await ownerWithProject(svc, 'other-studies@example.com');
    const foreignRef = (await other.call('GET', '/studies')).body.studies[0].ref;
    expect((await o.call('GET', `/studies/${foreignRef}`)).status).toBe(404);
    expect((await o.call('PATCH', `/studies/${foreignRef}`, { title: 'Hijack' })).status).toBe(404);
    expect((await o.call('DELETE', `/studies/${foreignRef}`)).status).toBe(404);
  });

  it('refuses scripts with errors, naming segment and field, and stores nothing', async () => {
    const before = (await o.call('GET', '/studies')).body.studies.length;
    const res = await o.call('POST', '/studies', {
      title: 'Broken',
      script: { version: 2, goals: [], segments: [{ id: 'a', mode: 'speak', title: 'Hi' }] },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/segments\[0\]\.speak_text/);
    expect((await o.call('GET', '/studies')).body.studies.length).toBe(before);
  });
});

describe('script review', () => {
  it('reports duplicate ids, unknown modes, missing speak_text, unserved goals and empty scripts, by segment and field', async () => {
    const script = {
      version: 2,
      goals: [{ id: 'g1', description: 'One' }, { id: 'g2', description: 'Two' }, { id: 'g10', description: 'Ten' }],
      segments: [
        { id: 's1', mode: 'speak', title: 'Hi' },
        { id: 's1', mode: 'sing', title: 'Dup' },
        { id: 's3', mode: 'talk', title: 'Ask', instruction: 'Ask', conductor_context: 'Serves g10.' },
      ],
    };
    const mcp = await svc.mcp(o.token);
    const viaMcp = (await mcp.callTool({ name: 'studies.validate_script', arguments: { projectRef: o.project.project_ref, script } })).structuredContent as any;
    const viaRest = (await o.call('POST', '/studies/validate-script', { script })).body;
    expect(viaMcp).toEqual(viaRest);
    expect(viaRest.valid).toBe(false);
    const codes = viaRest.errors.map((e: any) => `${e.code}@${e.field}`);
    expect(codes).toEqual(expect.arrayContaining(['missing_speak_text@segments[0].speak_text', 'duplicate_segment_id@segments[1].id', 'unknown_mode@segments[1].mode']));
    expect(viaRest.errors.find((e: any) => e.code === 'duplicate_segment_id')).toMatchObject({ segment_id: 's1', segment_index: 1 });
    // A segment naming g10 does not serve g1.
    expect(viaRest.warnings.filter((w: any) => w.code === 'goal_unserved').map((w: any) => w.field)).toEqual(['goals.g1', 'goals.g2']);
    const empty = (await o.call('POST', '/studies/validate-script', { script: { version: 2, segments: [] } })).body;
    expect(empty.errors).toEqual([expect.objectContaining({ code: 'empty_script', field: 'segments' })]);
    const review = await o.call('POST', '/studies/checkout-friction/review-script', { script });
    expect(review.body.errors).toEqual(viaRest.errors);
    // What creating the study would refuse, the review refuses: an empty field is left out, not sent empty.
    const blank = { version: 2, segments: [{ id: 'a', mode: 'talk', title: 'A', instruction: 'What happened?', conductor_context: '' }] };
    const checked = (await o.call('POST', '/studies/validate-script', { script: blank })).body;
    expect(checked.valid).toBe(false);
    expect(checked.errors).toEqual([expect.objectContaining({ code: 'empty_field', field: 'segments[0].conductor_context' })]);
    expect((await o.call('POST', '/studies', { title: 'Blank context', script: blank })).status).toBe(400);
    // A question written as a note is shown to participants as it is: a warning, not a refusal.
    const notes = { version: 2, segments: [{ id: 'deciding', mode: 'talk', title: 'Deciding', instruction: 'The moment they committed. Price ok? trial? who signed off. Almost didn\'t buy b/c ...?' }] };
    const noted = (await o.call('POST', '/studies/validate-script', { script: notes })).body;
    expect(noted.valid).toBe(true);
    expect(noted.warnings.filter((w: any) => w.code === 'note_like_question').map((w: any) => w.message.split('"')[1])).toEqual(['Price ok?', 'Trial?', "Almost didn't buy because?"]);
    expect(noted.warnings.find((w: any) => w.code === 'note_like_question')).toMatchObject({ field: 'segments[0].instruction', segment_id: 'deciding' });
    // A line the built-in conductor takes for the interviewer's note is named, so a line meant for the participant is not lost unseen.
    const coached = { version: 2, segments: [{ id: 'main', mode: 'talk', title: 'Renewals', instruction: 'Ask how the last renewal went. Do not suggest that the process is painful.' }] };
    const named = (await o.call('POST', '/studies/validate-script', { script: coached })).body;
    expect(named.participant_questions[0].questions).toEqual(['How did the last renewal go?']);
    expect(named.warnings).toEqual([expect.objectContaining({ code: 'not_asked', segment_id: 'main', message: expect.stringContaining('"Do not suggest that the process is painful."') })]);
    expect(viaRest.warnings.some((w: any) => w.code === 'not_asked')).toBe(false);
    // Notes in what a speak segment says are named, and left out when it is said (walkthrough 38).
    const noted2 = { version: 2, segments: [{ id: 'hello', mode: 'speak', title: 'Welcome', speak_text: 'Thanks for joining [remind them we record the screen]. Probe: ask if they have 10 minutes.' }, { id: 'main', mode: 'talk', title: 'Main', instruction: 'What did you come to do today?' }] };
    expect((await o.call('POST', '/studies/validate-script', { script: noted2 })).body.warnings).toContainEqual(
      expect.objectContaining({ code: 'notes_in_speak_text', segment_id: 'hello', message: expect.stringContaining('"[remind them we record the screen]", "Probe: ask if they have 10 minutes."') }),
    );
    // A guide in another language is said to need a model: the built-in conductor speaks English (walkthrough 32).
    const spanish = {
      version: 2,
      segments: [
        { id: 'hola', mode: 'speak', title: 'Bienvenida', speak_text: 'Gracias por participar. No hay respuestas incorrectas, queremos aprender sobre el producto.' },
        { id: 'rol', mode: 'talk', title: 'Rol', instruction: 'Pregúntale por su rol y cuántas personas hay en su equipo.' },
      ],
    };
    const foreign = (await o.call('POST', '/studies/validate-script', { script: spanish })).body;
    expect(foreign.valid).toBe(true);
    expect(foreign.warnings).toContainEqual(expect.objectContaining({ code: 'not_english', field: 'segments', message: expect.stringContaining('configure a model') }));
    expect(viaRest.warnings.concat(noted.warnings).some((w: any) => w.code === 'not_english')).toBe(false);
  });

  it('shows a rating referred to as "Same rating q" as the earlier rating question, with its branch on the score', async () => {
    const script = {
      version: 2,
      segments: [
        { id: 'rateA', mode: 'talk', title: 'Rating A', instruction: 'Post-task rating: On a scale of 1-5, how easy was that? (1 = very difficult, 5 = very easy). Ask why they gave that number.' },
        { id: 'rateB', mode: 'talk', title: 'Rating B', instruction: 'Same rating q for Task B (1-5). If 3 or lower → ask what tripped them up.' },
      ],
    };
    const checked = (await o.call('POST', '/studies/validate-script', { script })).body;
    const rating = 'On a scale of 1-5, where 1 is very difficult and 5 is very easy, how easy was that?';
    expect(checked.participant_questions).toEqual([
      { segment_id: 'rateA', mode: 'talk', questions: [rating, 'Why did you give that number?'], if_answered: [] },
      { segment_id: 'rateB', mode: 'talk', questions: [rating], if_answered: [{ after: rating, when: 'at most 3', question: 'What tripped you up?' }] },
    ]);
    const nps = { version: 2, segments: [{ id: 'nps', mode: 'talk', title: 'NPS', instruction: "On a scale of 0-10, how likely are you to recommend us? If 9-10: ask what they'd tell a friend." }] };
    expect((await o.call('POST', '/studies/validate-script', { script: nps })).body.participant_questions[0].if_answered).toEqual([
      { after: 'On a scale of 0-10, how likely are you to recommend us?', when: 'between 9 and 10', question: 'What would you tell a friend?' },
    ]);
  });
});

describe('what participants will hear', () => {
  it('lists the built-in conductor\'s questions per talk and observe segment, and warns where it finds none', async () => {
    const script = {
      version: 2,
      goals: [{ id: 'g1', description: 'Understand invoicing' }],
      segments: [
        { id: 'hi', mode: 'speak', title: 'Hi', speak_text: 'Welcome.' },
        { id: 'why', mode: 'talk', title: 'Invoices', instruction: 'Ask what the participant was trying to get done today and what they used before.', conductor_context: 'Serves g1' },
        { id: 'pay', mode: 'observe', title: 'Pay', instruction: 'Watch them pay an invoice. Do not help.' },
        { id: 'coach', mode: 'talk', title: 'Your billing setup', instruction: 'Stay neutral. Do not lead the participant.' },
        { id: 'quiet', mode: 'observe', title: 'Try it', instruction: 'Note hesitations and errors.' },
        { id: 'bare', mode: 'talk', title: 'What would make it worth it' },
        { id: 'branch', mode: 'talk', title: 'Overbooking', instruction: 'Ask: "Do you ever overbook on purpose?" If they say yes, ask how they decide by how much.' },
      ],
    };
    const res = await o.call('POST', '/studies/validate-script', { script });
    expect(res.status).toBe(200);
    expect(res.body.valid).toBe(true);
    expect(res.body.participant_questions).toEqual([
      { segment_id: 'why', mode: 'talk', questions: ['What were you trying to get done today, and what did you use before?'], if_answered: [] },
      { segment_id: 'pay', mode: 'observe', questions: ['Could you show me how you would pay an invoice, thinking aloud as you go?'], if_answered: [] },
      { segment_id: 'coach', mode: 'talk', questions: ['Could you tell me about your billing setup?'], if_answered: [] },
      { segment_id: 'quiet', mode: 'observe', questions: [expect.stringContaining('"Try it"')], if_answered: [] },
      { segment_id: 'bare', mode: 'talk', questions: ['What would make it worth it?'], if_answered: [] },
      // A branch of the guide is shown with the question it follows and when it is asked.
      { segment_id: 'branch', mode: 'talk', questions: ['Do you ever overbook on purpose?'], if_answered: [{ after: 'Do you ever overbook on purpose?', when: 'yes', question: 'How do you decide by how much?' }] },
    ]);
    // A warning, not a refusal, for instructions that give the participant nothing to answer.
    const warned = res.body.warnings.filter((w: any) => w.code === 'no_participant_questions').map((w: any) => w.field);
    expect(warned).toEqual(['segments[3].instruction', 'segments[4].instruction']);
    expect(res.body.warnings.find((w: any) => w.segment_id === 'bare')).toMatchObject({ code: 'missing_instruction' });
    const stored = await o.call('POST', '/studies', { title: 'Invoices', script, goals: script.goals });
    expect(stored.status).toBe(201);
  });
});

describe('studies over MCP', () => {
  it('answers the same as REST and exposes the script as a resource', async () => {
    const mcp = await svc.mcp(o.token);
    const viaMcp = await mcp.callTool({ name: 'studies.get', arguments: { projectRef: o.project.project_ref, studyId: 'starter-study' } });
    const viaRest = await o.call('GET', '/studies/starter-study');
    expect(viaMcp.structuredContent).toEqual(viaRest.body);

    const created = await mcp.callTool({ name: 'studies.create', arguments: { projectRef: o.project.project_ref, title: 'Agent study', script: validScript } });
    expect((created.structuredContent as any).study).toMatchObject({ handle: 'agent-study', status: 'draft' });
    const preview = await mcp.callTool({ name: 'studies.resolve_preview', arguments: { projectRef: o.project.project_ref, pathname: '/' } });
    expect(preview.structuredContent).toEqual((await o.call('POST', '/studies/resolve-preview', { pathname: '/' })).body);

    const uri = `service://projects/${o.orgHandle}/${o.project.handle}/studies/agent-study/script`;
    expect((await mcp.listResources()).resources.map((r) => r.uri)).toContain(uri);
    const doc = JSON.parse(((await mcp.readResource({ uri })).contents[0] as { text: string }).text);
    expect(doc).toMatchObject({ handle: 'agent-study', script: validScript, review: { valid: true } });

    const { prompts } = await mcp.listPrompts();
    expect(prompts.map((p) => p.name)).toContain('draft-study-script');
    const drafted = await mcp.getPrompt({ name: 'draft-study-script', arguments: { projectRef: o.project.project_ref, goals: 'Why trials stall\nWhat makes people pay' } });
    const text = (drafted.messages[0].content as { text: string }).text;
    expect(text).toContain('g2: What makes people pay');
    expect(text).toContain('studies.validate_script');

    const stranger = await svc.mcp((await svc.login('nosy-studies@example.com')).token);
    await expect(stranger.readResource({ uri })).rejects.toMatchObject({ code: -32002 });
  });
});
