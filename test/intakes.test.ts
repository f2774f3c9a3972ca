import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './helpers/service.ts';
import { ownerWithProject, validScript } from './helpers/fixtures.ts';

let svc: TestService;
let o: Awaited<ReturnType<typeof ownerWithProject>>;

beforeAll(async () => {
  svc = await startTestService();
  o = await ownerWithProject(svc, 'intakes@example.com');
});
afterAll(() => svc?.stop());

const questions = [
  { question_text: 'How often do you shop online?', question_type: 'single_choice', options: ['Daily', 'Weekly', 'Rarely'], qualification_rules: { qualify: ['Daily', 'Weekly'] } },
  { question_text: 'Which devices?', question_type: 'multiple_choice', options: ['Phone', 'Laptop', 'Tablet'], required: false },
  { question_text: 'Your age', question_type: 'number', min_value: 0, max_value: 120, qualification_rules: { min: 18 } },
  { question_text: 'Anything else?', question_type: 'long_text', required: false },
];

describe('intakes', () => {
  it('creates an intake with questions and reads it at both paths', async () => {
    const res = await o.call('POST', '/screeners', { title: 'Online shoppers', welcome_message: 'Hi!', brand_color: '#123456', consent_text: 'I agree.', max_participants: 3, questions });
    expect(res.status).toBe(201);
    expect(res.body.intake).toMatchObject({ handle: 'online-shoppers', status: 'active', auto_managed: 0, max_participants: 3, complete_count: 0, brand_color: '#123456', consent_text: 'I agree.' });
    expect(res.body.questions.map((q: any) => [q.question_type, q.required, q.sort_order])).toEqual([
      ['single_choice', 1, 0],
      ['multiple_choice', 0, 1],
      ['number', 1, 2],
      ['long_text', 0, 3],
    ]);
    expect(JSON.parse(res.body.questions[0].qualification_rules_json)).toEqual({ qualify: ['Daily', 'Weekly'] });
    const viaAlias = await o.call('GET', `/intakes/${res.body.intake.ref}`);
    const viaScreeners = await o.call('GET', '/screeners/online-shoppers');
    expect(viaAlias.body).toEqual(viaScreeners.body);
    expect(viaAlias.body.responses).toEqual([]);
    expect((await o.call('GET', '/intakes')).body.intakes).toHaveLength(1);
  });

  it('refuses questions whose parts do not fit', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ question_text: 'Q', question_type: 'single_choice', options: ['Only'] }, /at least 2 options/],
      [{ question_text: 'Q', question_type: 'short_text', options: ['a', 'b'] }, /only choice questions/],
      [{ question_text: 'Q', question_type: 'scale', min_value: 1 }, /scale needs/],
      [{ question_text: 'Q', question_type: 'single_choice', options: ['a', 'b'], qualification_rules: { qualify: ['c'] } }, /"c" is not one of the options/],
      [{ question_text: 'Q', question_type: 'short_text', qualification_rules: { min: 3 } }, /min\/max apply/],
      [{ question_text: 'Q', question_type: 'dropdown' }, /question_type/],
      [{ question_text: '', question_type: 'short_text' }, /question_text/],
    ];
    for (const [q, re] of cases) {
      const res = await o.call('POST', '/screeners/online-shoppers/questions', q);
      expect(res.status, JSON.stringify(q)).toBe(400);
      expect(res.body.error).toMatch(re);
    }
    expect((await o.call('GET', '/screeners/online-shoppers')).body.questions).toHaveLength(4);
  });

  it('adds, updates, reorders, deletes and replaces questions', async () => {
    const add = await o.call('POST', '/screeners/online-shoppers/questions', { question_text: 'Do you use our app?', question_type: 'yes_no', qualification_rules: { qualify: ['yes'] } });
    expect(add.status).toBe(201);
    expect(add.body.question).toMatchObject({ sort_order: 4, options_json: '["yes","no"]' });
    const qid = add.body.question.id;
    const upd = await o.call('PATCH', `/screeners/online-shoppers/questions/${qid}`, { question_text: 'Do you use our mobile app?', required: false });
    expect(upd.body.question).toMatchObject({ question_text: 'Do you use our mobile app?', required: 0 });
    const badUpd = await o.call('PATCH', `/screeners/online-shoppers/questions/${qid}`, { question_type: 'short_text' });
    expect(badUpd.status).toBe(400);

    const all = (await o.call('GET', '/screeners/online-shoppers')).body.questions.map((q: any) => q.id);
    const reversed = [...all].reverse();
    const re = await o.call('POST', '/screeners/online-shoppers/questions/reorder', { question_ids: reversed });
    expect(re.body.questions.map((q: any) => q.id)).toEqual(reversed);
    expect(re.body.questions.map((q: any) => q.sort_order)).toEqual([0, 1, 2, 3, 4]);
    expect((await o.call('POST', '/screeners/online-shoppers/questions/reorder', { question_ids: reversed.slice(1) })).status).toBe(400);
    expect((await o.call('POST', '/screeners/online-shoppers/questions/reorder', { question_ids: [...reversed.slice(1), reversed[1]] })).status).toBe(400);

    expect((await o.call('DELETE', `/screeners/online-shoppers/questions/${qid}`)).body).toEqual({ success: true });
    expect((await o.call('DELETE', `/screeners/online-shoppers/questions/${qid}`)).status).toBe(404);

    const replaced = await o.call('PUT', '/intakes/online-shoppers/questions', { questions });
    expect(replaced.body.questions.map((q: any) => q.question_text)).toEqual(questions.map((q) => q.question_text));
  });

  it('lets a study auto-create and link its intake, or link an existing one', async () => {
    const auto = await o.call('POST', '/studies', { title: 'Screened study', script: validScript, auto_create_intake: true });
    expect(auto.status).toBe(201);
    expect(auto.body.study.intake_auto_created).toBe(true);
    const intake = (await o.call('GET', `/screeners/${auto.body.study.intake_ref}`)).body.intake;
    expect(intake).toMatchObject({ auto_managed: 1, title: 'Screened study — intake' });
    const linked = await o.call('POST', '/studies', { title: 'Linked study', script: validScript, intake_ref: 'online-shoppers' });
    expect(linked.body.study).toMatchObject({ intake_auto_created: false, intake_ref: (await o.call('GET', '/screeners/online-shoppers')).body.intake.ref });
    const missing = await o.call('POST', '/studies', { title: 'Nope', script: validScript, intake_ref: 'no-such-intake' });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toMatch(/intake_ref/);
  });
});

describe('the widget side (SDK key)', () => {
  const sdk = (method: string, path: string, body?: unknown, key = o.project.public_key) =>
    svc.api(method, path, { body, headers: key ? { 'x-project-key': key } : {} });
  let intakeRef: string;

  beforeAll(async () => {
    intakeRef = (await o.call('GET', '/screeners/online-shoppers')).body.intake.ref;
  });
  // Each test starts with fresh rate-limit buckets (the respond route allows 10 a minute).
  beforeEach(() => svc.services.db.pool.query('DELETE FROM rate_limit_hits'));

  it('lists active intakes and shows questions without qualification rules', async () => {
    const list = await sdk('GET', '/api/sdk/screeners');
    expect(list.status).toBe(200);
    expect(list.body.intakes.map((i: any) => i.handle)).toContain('online-shoppers');
    expect(list.body.intakes[0]).not.toHaveProperty('qualified_count');
    const one = await svc.api('GET', `/api/sdk/screener/online-shoppers?key=${o.project.public_key}`);
    expect(one.status).toBe(200);
    expect(one.body.questions[0]).toEqual(expect.objectContaining({ question_type: 'single_choice', options: ['Daily', 'Weekly', 'Rarely'] }));
    expect(JSON.stringify(one.body)).not.toMatch(/qualif/);
  });

  it('keeps SDK keys and user tokens apart, and projects apart', async () => {
    expect((await sdk('GET', '/api/sdk/screeners', undefined, '')).status).toBe(401);
    const withToken = await svc.api('GET', '/api/sdk/screeners', { token: o.token });
    expect(withToken.status).toBe(401);
    expect(withToken.body.code).toBe('sdk_key_required');
    expect((await sdk('GET', '/api/sdk/screeners', undefined, 'pk_not_a_key')).body.code).toBe('invalid_sdk_key');
    const asUser = await svc.api('GET', `${o.P}/screeners`, { headers: { 'x-project-key': o.project.public_key } });
    expect(asUser.status).toBe(401);
    const other = await ownerWithProject(svc, 'intakes-other@example.com');
    const foreign = await sdk('GET', `/api/sdk/screener/${intakeRef}`, undefined, other.project.public_key);
    expect(foreign.status).toBe(404);
    const foreignRespond = await sdk('POST', `/api/sdk/screener/${intakeRef}/respond`, { answers: {}, consent_given: true }, other.project.public_key);
    expect(foreignRespond.status).toBe(404);
  });

  it('evaluates answers: qualifies, disqualifies with the right message, and refuses malformed answers', async () => {
    const qs = (await o.call('GET', '/screeners/online-shoppers')).body.questions;
    const [often, devices, age] = qs.map((q: any) => q.id);
    const bad = await sdk('POST', `/api/sdk/screener/online-shoppers/respond`, { answers: { [often]: 'Hourly', [age]: 30 }, consent_given: true });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain(`answers.${often}: must be one of the options`);
    const missing = await sdk('POST', `/api/sdk/screener/online-shoppers/respond`, { answers: { [often]: 'Daily' }, consent_given: true });
    expect(missing.body.error).toContain(`answers.${age}: an answer is required`);
    const noConsent = await sdk('POST', `/api/sdk/screener/online-shoppers/respond`, { answers: { [often]: 'Daily', [age]: 30 }, consent_given: false });
    expect(noConsent.status).toBe(422);
    expect(noConsent.body.code).toBe('consent_required');

    const yes = await sdk('POST', `/api/sdk/screener/online-shoppers/respond`, {
      answers: { [often]: 'Daily', [devices]: ['Phone', 'Laptop'], [age]: '34' },
      consent_given: true,
      participant_email: 'pat@example.com',
      utm_source: 'newsletter',
    });
    expect(yes.status).toBe(201);
    expect(yes.body).toMatchObject({ qualified: true, message: 'Thank you! You are all set for the interview.' });
    const no = await sdk('POST', `/api/sdk/screener/online-shoppers/respond`, { answers: { [often]: 'Rarely', [age]: 40 }, consent_given: true });
    expect(no.body).toMatchObject({ qualified: false, message: expect.stringMatching(/different profile/) });
    const young = await sdk('POST', `/api/sdk/screener/online-shoppers/respond`, { answers: { [often]: 'Weekly', [age]: 16 }, consent_given: true });
    expect(young.body.qualified).toBe(false);

    const intake = (await o.call('GET', '/screeners/online-shoppers')).body;
    expect(intake.intake).toMatchObject({ complete_count: 3, qualified_count: 1, disqualified_count: 2 });
    const stored = intake.responses.find((r: any) => r.id === yes.body.response_id);
    expect(stored).toMatchObject({ qualified: 1, consent_given: 1, participant_email: 'pat@example.com', utm_source: 'newsletter', session_id: null });
    expect(JSON.parse(stored.answers_json)).toEqual({ [often]: 'Daily', [devices]: ['Phone', 'Laptop'], [age]: 34 });
    const youngRow = intake.responses.find((r: any) => r.id === young.body.response_id);
    expect(youngRow.qualification_reason).toMatch(/below 18/);

    // A researcher overrides: counts follow.
    const over = await o.call('PATCH', `/screeners/online-shoppers/responses/${young.body.response_id}`, { qualified: true, qualification_reason: 'Parental consent on file' });
    expect(over.body.response).toMatchObject({ qualified: 1, qualification_reason: 'Parental consent on file' });
    const amend = await o.call('PATCH', `/screeners/online-shoppers/responses/${no.body.response_id}`, { answers: { [often]: 'Weekly', [age]: 40 } });
    expect(amend.body.response.qualified).toBe(1);
    const read = await o.call('GET', `/intakes/online-shoppers/responses/${no.body.response_id}`);
    expect(read.body.response.qualified).toBe(1);
    expect((await o.call('GET', '/screeners/online-shoppers')).body.intake).toMatchObject({ complete_count: 3, qualified_count: 3, disqualified_count: 0 });
  });

  it('holds max_participants under concurrent responses and then refuses a full intake', async () => {
    const created = await o.call('POST', '/screeners', {
      title: 'Tiny',
      max_participants: 3,
      questions: [{ question_text: 'Role?', question_type: 'single_choice', options: ['Dev', 'PM'], qualification_rules: { qualify: ['Dev'] } }],
    });
    const qid = created.body.questions[0].id;
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => sdk('POST', '/api/sdk/screener/tiny/respond', { answers: { [qid]: i % 4 === 3 ? 'PM' : 'Dev' }, consent_given: true })),
    );
    const qualified = results.filter((r) => r.status === 201 && r.body.qualified).length;
    const full = results.filter((r) => r.status === 422 && r.body.code === 'intake_full').length;
    expect(qualified).toBe(3);
    expect(results.every((r) => r.status === 201 || (r.status === 422 && r.body.code === 'intake_full'))).toBe(true);
    const intake = (await o.call('GET', '/screeners/tiny')).body;
    expect(intake.intake.qualified_count).toBe(3);
    expect(intake.intake.complete_count).toBe(intake.responses.length);
    expect(intake.intake.complete_count + full).toBe(8);
    expect((await sdk('GET', '/api/sdk/screeners')).body.intakes.map((i: any) => i.handle)).not.toContain('tiny');
    // A study screened by the full intake is unavailable where it would be offered.
    const study = await o.call('POST', '/studies', {
      title: 'Tiny study', script: validScript, intake_ref: 'tiny', status: 'active',
      visibility: { version: 1, enabled: true, rules: [{ effect: 'include', match: 'exact', pathname: '/tiny' }] },
    });
    expect(study.status).toBe(201);
    expect((await o.call('POST', '/studies/resolve-preview', { pathname: '/tiny' })).body).toEqual({ outcome: 'unavailable', study_ref: study.body.study.ref, reason: 'capacity_reached' });

    await o.call('PATCH', '/screeners/online-shoppers', { status: 'paused' });
    const inactive = await sdk('POST', '/api/sdk/screener/online-shoppers/respond', { answers: {}, consent_given: true });
    expect(inactive.status).toBe(422);
    expect(inactive.body.code).toBe('intake_inactive');
    expect((await sdk('GET', '/api/sdk/screener/online-shoppers')).status).toBe(404);
    await o.call('PATCH', '/screeners/online-shoppers', { status: 'active' });
  });

  it('serves the active study with parsed script and creates interviews bound to it', async () => {
    const study = await sdk('GET', '/api/sdk/study/starter-study');
    expect(study.status).toBe(200);
    expect(study.body.study).toMatchObject({ handle: 'starter-study', status: 'active', intake_ref: null });
    expect(study.body.study.script.segments.length).toBeGreaterThan(3);
    expect((await sdk('GET', '/api/sdk/study/screened-study')).status).toBe(404); // a draft

    const session = await sdk('POST', '/api/sdk/sessions', { study_id: 'starter-study', participant_name: 'Pat' });
    expect(session.status).toBe(201);
    expect(session.body.session).toMatchObject({ study_ref: study.body.study.ref, source: 'widget', status: 'created', participant_name: 'Pat', project_ref: o.project.project_ref });
    const plain = await sdk('POST', '/api/sdk/sessions', {});
    expect(plain.body.session.study_ref).toBeNull();
    const draft = await sdk('POST', '/api/sdk/sessions', { study_id: 'screened-study' });
    expect(draft.status).toBe(422);
    expect(draft.body.code).toBe('study_not_active');
    const other = await ownerWithProject(svc, 'sessions-other@example.com');
    expect((await sdk('POST', '/api/sdk/sessions', { study_id: 'starter-study' }, other.project.public_key)).body.session.study_ref).not.toBe(study.body.study.ref);
    const foreignStudy = await sdk('POST', '/api/sdk/sessions', { study_id: study.body.study.ref }, other.project.public_key);
    expect(foreignStudy.status).toBe(404);
  });

  it('needs a qualified intake response for a screened study', async () => {
    await o.call('PATCH', '/studies/linked-study', { visibility: { version: 1, enabled: false }, status: 'active' });
    const without = await sdk('POST', '/api/sdk/sessions', { study_id: 'linked-study' });
    expect(without.body.code).toBe('intake_required');
    const qs = (await o.call('GET', '/screeners/online-shoppers')).body.questions.map((q: any) => q.id);
    await o.call('PATCH', '/screeners/online-shoppers', { max_participants: 10 });
    const resp = await sdk('POST', '/api/sdk/screener/online-shoppers/respond', { answers: { [qs[0]]: 'Daily', [qs[2]]: 50 }, consent_given: true, participant_name: 'Robin' });
    expect(resp.status, JSON.stringify(resp.body)).toBe(201);
    const withIt = await sdk('POST', '/api/sdk/sessions', { study_id: 'linked-study', screener_response_id: resp.body.response_id });
    expect(withIt.status, JSON.stringify(withIt.body)).toBe(201);
    expect(withIt.status).toBe(201);
    expect(withIt.body.session).toMatchObject({ screener_response_id: resp.body.response_id, participant_name: 'Robin' });
    const stored = (await o.call('GET', `/screeners/online-shoppers/responses/${resp.body.response_id}`)).body.response;
    expect(stored.session_id).toBe(withIt.body.session.id);
  });

  it('rate limits SDK routes per IP exactly as SPEC 8, with headers and Retry-After', async () => {
    await svc.services.db.pool.query('DELETE FROM rate_limit_hits');
    const into = Date.now() % 60_000;
    if (into > 45_000) await new Promise((r) => setTimeout(r, 60_000 - into + 200));
    let last;
    for (let i = 0; i < 60; i++) {
      last = await sdk('GET', '/api/sdk/screener/online-shoppers');
      expect(last.status).toBe(200);
    }
    expect(last!.headers.get('ratelimit-limit')).toBe('60');
    const limited = await sdk('GET', '/api/sdk/screener/online-shoppers');
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ code: 'rate_limited', retryable: true });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.headers.get('x-ratelimit-limit')).toBe('60');
    // Other SDK routes have their own buckets and limits.
    const list = await sdk('GET', '/api/sdk/screeners');
    expect(list.status).toBe(200);
    expect(list.headers.get('ratelimit-limit')).toBe('30');
    expect((await sdk('POST', '/api/sdk/sessions', {})).headers.get('ratelimit-limit')).toBe('20');
  });
});
