import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './helpers/service.ts';
import { ownerWithProject, validInvitation, validScript, visibility } from './helpers/fixtures.ts';

let svc: TestService;
let o: Awaited<ReturnType<typeof ownerWithProject>>;
let n = 0;

beforeAll(async () => {
  svc = await startTestService();
  o = await ownerWithProject(svc, 'placement@example.com');
});
afterAll(() => svc?.stop());

const create = (extra: Record<string, unknown>) => o.call('POST', '/studies', { title: `Study ${++n}`, script: validScript, ...extra });

function clone<T>(v: T): T {
  return structuredClone(v);
}
function setPath(obj: any, path: string, value: unknown) {
  const keys = path.split('.');
  let cur = obj;
  for (const k of keys.slice(0, -1)) cur = cur[k];
  if (value === undefined) delete cur[keys.at(-1)!];
  else cur[keys.at(-1)!] = value;
  return obj;
}

describe('invitation validation (SPEC 2.9.1)', () => {
  const strings: Array<[string, number, number]> = [
    ['launcher.label', 1, 80],
    ['panel.eyebrow', 1, 80],
    ['panel.headline', 1, 120],
    ['panel.body', 1, 600],
    ['panel.reward.label', 1, 160],
    ['panel.reward.eligibility', 1, 240],
    ['panel.reward.delivery', 1, 240],
    ['panel.cta', 1, 80],
    ['panel.image.asset_id', 1, 160],
    ['panel.image.alt', 0, 160],
  ];

  it('accepts every string exactly at its bounds and refuses one over, naming the path; nothing stored', async () => {
    const before = (await o.call('GET', '/studies')).body.studies.length;
    for (const [path, min, max] of strings) {
      const atMax = await create({ invitation: setPath(clone(validInvitation), path, 'x'.repeat(max)) });
      expect(atMax.status, `${path} at ${max}`).toBe(201);
      if (min > 0) expect((await create({ invitation: setPath(clone(validInvitation), path, 'x'.repeat(min)) })).status, `${path} at ${min}`).toBe(201);
      const over = await create({ invitation: setPath(clone(validInvitation), path, 'x'.repeat(max + 1)) });
      expect(over.status, `${path} over`).toBe(400);
      expect(over.body.error).toContain(`invitation.${path}`);
      if (min > 0) {
        const under = await create({ invitation: setPath(clone(validInvitation), path, '') });
        expect(under.status, `${path} empty`).toBe(400);
      }
    }
    const after = (await o.call('GET', '/studies')).body.studies.length;
    expect(after).toBe(before + strings.length + strings.filter(([, min]) => min > 0).length);
  });

  it('bounds duration, url length, enums and hex colours; requires what SPEC requires', async () => {
    const cases: Array<[string, unknown, number]> = [
      ['panel.duration_minutes', 1, 201],
      ['panel.duration_minutes', 240, 201],
      ['panel.duration_minutes', 0, 400],
      ['panel.duration_minutes', 241, 400],
      ['panel.duration_minutes', 10.5, 400],
      ['panel.image.url', 'https://cdn.example.com/' + 'a'.repeat(2000 - 24), 201],
      ['panel.image.url', 'https://cdn.example.com/' + 'a'.repeat(2001 - 24), 400],
      ['panel.image.url', 'not a url', 400],
      ['launcher.icon', 'star', 400],
      ['launcher.style', 'loud', 400],
      ['launcher.shape', 'circle', 400],
      ['panel.reward.kind', 'cash', 400],
      ['presentation_mode', 'popup', 400],
      ['placement.desktop', 'top-left', 400],
      ['placement.mobile', 'center', 400],
      ['brand_color.light', '#12345', 400],
      ['brand_color.light', '112233', 400],
      ['brand_color.dark', '#GGGGGG', 400],
      ['foreground_color', 'white', 400],
      ['brand_color.dark', undefined, 201],
      ['launcher.style', undefined, 201],
      ['panel.eyebrow', undefined, 201],
      ['panel.image', undefined, 201],
      ['panel.reward', undefined, 201],
      ['panel', undefined, 201],
      ['launcher.label', undefined, 400],
      ['launcher.icon', undefined, 400],
      ['panel.headline', undefined, 400],
      ['panel.cta', undefined, 400],
      ['panel.reward.kind', undefined, 400],
      ['panel.reward.label', undefined, 400],
      ['panel.image.alt', undefined, 400],
      ['presentation_mode', undefined, 400],
      ['brand_color', undefined, 400],
      ['brand_color.light', undefined, 400],
      ['placement', undefined, 400],
      ['placement.mobile', undefined, 400],
    ];
    for (const [path, value, status] of cases) {
      const res = await create({ invitation: setPath(clone(validInvitation), path, value) });
      expect(res.status, `${path}=${JSON.stringify(value)}`).toBe(status);
      if (status === 400) expect(res.body.error, path).toContain(`invitation.${path.split('.').slice(0, path.split('.').length).join('.')}`.split('.').slice(0, 2).join('.'));
    }
  });

  it('refuses extra properties at every level', async () => {
    for (const path of ['extra', 'launcher.extra', 'panel.extra', 'panel.reward.extra', 'panel.image.extra', 'brand_color.extra', 'placement.extra']) {
      const res = await create({ invitation: setPath(clone(validInvitation), path, 'x') });
      expect(res.status, path).toBe(400);
      expect(res.body.error).toMatch(/unknown field/);
      expect(res.body.error).toContain(path.replace(/\.extra$/, '').replace(/^extra$/, 'invitation'));
    }
  });
});

describe('visibility validation (SPEC 2.9.2)', () => {
  const bad: Array<[string, string]> = [
    ['', 'empty'],
    ['pricing', 'no leading slash'],
    ['//pricing', 'double leading slash'],
    ['/a//b', 'double slash inside'],
    ['/a?b=1', 'query'],
    ['/a#top', 'fragment'],
    ['/a\\b', 'backslash'],
    ['/caf\u00e9', 'non-ASCII'],
    ['/a\tb', 'control character'],
    ['/a"b', 'quote'],
    ['/a<b', 'less-than'],
    ['/a>b', 'greater-than'],
    ['/a^b', 'caret'],
    ['/a`b', 'backtick'],
    ['/a{b', 'brace open'],
    ['/a}b', 'brace close'],
    ['/a/./b', 'dot segment'],
    ['/a/../b', 'dot-dot segment'],
    ['/a/%2e/b', 'encoded dot'],
    ['/a/%2E%2e', 'encoded dot-dot'],
    ['/a/.', 'trailing dot segment'],
    ['/pricing/', 'trailing slash'],
    ['/' + 'a'.repeat(2000), 'too long'],
  ];
  const good = ['/', '/pricing', '/a/b-c_d~e', '/a/.well-known', '/a/%2eb', '/' + 'a'.repeat(1999), '/a/b:c@d!$&\'()*+,;=%20'];

  it('refuses each broken pathname rule, naming the rule', async () => {
    for (const [pathname, why] of bad) {
      const res = await create({ visibility: visibility([['include', 'exact', pathname]]) });
      expect(res.status, why).toBe(400);
      expect(res.body.error, why).toContain('visibility.rules.0.pathname');
    }
  });

  it('accepts good pathnames', async () => {
    for (const pathname of good) {
      const res = await create({ visibility: visibility([['include', 'exact', pathname]]) });
      expect(res.status, pathname).toBe(201);
      expect(res.body.study.visibility_state).toBe('valid');
    }
  });

  it('bounds rules, languages, priority and order, and refuses extra properties', async () => {
    const rules = (k: number) => Array.from({ length: k }, (_, i) => ['include', 'exact', `/p${i}`] as [string, string, string]);
    const langs = (k: number) => Array.from({ length: k }, (_, i) => `l${String.fromCharCode(97 + (i % 26))}${i >= 26 ? 'x' : ''}`.slice(0, 3));
    const cases: Array<[unknown, number, string]> = [
      [visibility(rules(100)), 201, ''],
      [visibility(rules(101)), 400, 'visibility.rules'],
      [visibility([], { languages: langs(20) }), 201, ''],
      [visibility([], { languages: [...langs(20), 'en'] }), 400, 'visibility.languages'],
      [visibility([], { priority: 1_000_000 }), 201, ''],
      [visibility([], { priority: -1_000_000 }), 201, ''],
      [visibility([], { priority: 1_000_001 }), 400, 'visibility.priority'],
      [visibility([], { priority: -1_000_001 }), 400, 'visibility.priority'],
      [visibility([], { priority: 1.5 }), 400, 'visibility.priority'],
      [visibility([], { order: 0 }), 201, ''],
      [visibility([], { order: 1_000_000 }), 201, ''],
      [visibility([], { order: -1 }), 400, 'visibility.order'],
      [visibility([], { order: 1_000_001 }), 400, 'visibility.order'],
      [visibility([], { version: 2 }), 400, 'visibility.version'],
      [{ enabled: true }, 400, 'visibility.version'],
      [{ version: 1 }, 400, 'visibility.enabled'],
      [visibility([], { extra: 1 }), 400, 'visibility'],
      [{ ...visibility([]), rules: [{ effect: 'include', match: 'exact', pathname: '/', extra: 1 }] }, 400, 'visibility.rules.0'],
      [{ ...visibility([]), rules: [{ effect: 'allow', match: 'exact', pathname: '/' }] }, 400, 'visibility.rules.0.effect'],
      [{ ...visibility([]), rules: [{ effect: 'include', match: 'prefix', pathname: '/' }] }, 400, 'visibility.rules.0.match'],
      [visibility([], { languages: ['english!'] }), 400, 'visibility.languages.0'],
    ];
    for (const [vis, status, field] of cases) {
      const res = await create({ visibility: vis });
      expect(res.status, JSON.stringify(vis).slice(0, 120)).toBe(status);
      if (field) expect(res.body.error).toContain(field);
    }
    const defaults = await create({ visibility: { version: 1, enabled: false } });
    expect(defaults.body.study.visibility).toEqual({ version: 1, enabled: false, rules: [], languages: [], priority: 0, order: 0 });
  });
});

describe('placement conflicts and preview (SPEC 2.10, 7.4)', () => {
  let p: Awaited<ReturnType<typeof ownerWithProject>>;
  const mk = (title: string, vis: unknown, extra: Record<string, unknown> = {}) =>
    p.call('POST', '/studies', { title, script: validScript, visibility: vis, invitation: validInvitation, ...extra });
  const preview = (body: unknown) => p.call('POST', '/studies/resolve-preview', body);

  beforeAll(async () => {
    p = await ownerWithProject(svc, 'preview@example.com', 'Preview project');
  });

  it('offers the untargeted starter study everywhere until a targeted study takes a page', async () => {
    const starter = (await p.call('GET', '/studies')).body.studies[0];
    expect((await preview({ pathname: '/anything' })).body).toEqual({ outcome: 'match', study_ref: starter.ref, study_title: starter.title, invitation: starter.invitation });
    expect(starter.invitation).toMatchObject({ presentation_mode: 'passive', launcher: { label: expect.any(String) } });
    const pricing = await mk('Pricing', visibility([['include', 'subtree', '/pricing'], ['exclude', 'exact', '/pricing/legal']]), { status: 'active' });
    expect(pricing.status).toBe(201);
    const r = await preview({ url: 'https://shop.example.com/pricing/teams?x=1' });
    expect(r.body).toMatchObject({ outcome: 'match', study_ref: pricing.body.study.ref, invitation: validInvitation });
    expect((await preview({ pathname: '/pricing/legal' })).body.study_ref).toBe(starter.ref);
    expect((await preview({ pathname: '/pricing/' })).body.study_ref).toBe(pricing.body.study.ref);
  });

  it('refuses a second untargeted active study, and a targeted one at the same priority on an overlapping page', async () => {
    const untargeted = await p.call('POST', '/studies', { title: 'Everywhere', script: validScript, status: 'active' });
    expect(untargeted.status).toBe(422);
    expect(untargeted.body).toMatchObject({ code: 'study_placement_conflict', representative_context: { kind: 'subtree_remainder', pathname: '/', language: null } });

    const clash = await mk('Teams', visibility([['include', 'exact', '/pricing/teams']]), { status: 'active' });
    expect(clash.status).toBe(201); // exact beats subtree: no tie

    const subtreeClash = await mk('Plans', visibility([['include', 'subtree', '/pricing/plans']]), { status: 'active' });
    expect(subtreeClash.status).toBe(422);
    const pricingRef = (await p.call('GET', '/studies/pricing')).body.study.ref;
    expect(subtreeClash.body).toMatchObject({
      code: 'study_placement_conflict',
      conflicting_study_refs: [pricingRef],
      representative_context: { kind: 'pathname', pathname: '/pricing/plans', language: null },
      retryable: false,
      action: expect.any(String),
    });

    const remainder = await mk('Root', visibility([['include', 'subtree', '/'], ['exclude', 'subtree', '/pricing']], { languages: ['en'] }), { status: 'active' });
    expect(remainder.status).toBe(201); // its pages never overlap Pricing's

    // Pricing takes every language, so a French study on the same pages collides, in French.
    const french = await mk('Pricing FR', visibility([['include', 'subtree', '/pricing']], { languages: ['fr'] }), { status: 'active' });
    expect(french.status).toBe(422);
    expect(french.body.representative_context).toEqual({ kind: 'pathname', pathname: '/pricing', language: 'fr' });
    // Studies whose languages never meet can share pages.
    expect((await mk('Docs DE', visibility([['include', 'subtree', '/docs']], { languages: ['de'] }), { status: 'active' })).status).toBe(201);
    expect((await mk('Docs FR', visibility([['include', 'subtree', '/docs']], { languages: ['fr'] }), { status: 'active' })).status).toBe(201);
    const docsAny = await mk('Docs FR-CA', visibility([['include', 'subtree', '/docs/guide']], { languages: ['fr-CA'] }), { status: 'active' });
    expect(docsAny.status).toBe(422);
    expect(docsAny.body.representative_context).toEqual({ kind: 'pathname', pathname: '/docs/guide', language: 'fr-CA' });
    // A subtree under another subtree collides on the pages no rule names.
    await p.call('PATCH', '/studies/docs-de', { status: 'paused' });
    await p.call('PATCH', '/studies/docs-fr', { status: 'paused' });
    const a = await mk('Help A', visibility([['include', 'subtree', '/help'], ['exclude', 'exact', '/help']], { priority: 7 }), { status: 'active' });
    expect(a.status).toBe(201);
    const b = await mk('Help B', visibility([['include', 'subtree', '/help']], { priority: 7 }), { status: 'active' });
    expect(b.status).toBe(422);
    expect(b.body.representative_context).toEqual({ kind: 'subtree_remainder', pathname: '/help', language: null });
  });

  it('applies priority, then order, and answers ambiguous, inactive and configuration states', async () => {
    const q = await ownerWithProject(svc, 'preview2@example.com', 'Second');
    const make = (title: string, vis: unknown, extra: Record<string, unknown> = {}) => q.call('POST', '/studies', { title, script: validScript, visibility: vis, ...extra });
    const low = await make('Low', visibility([['include', 'subtree', '/app']], { priority: 1 }), { status: 'active' });
    const high = await make('High', visibility([['include', 'subtree', '/app']], { priority: 5 }), { status: 'active' });
    expect([low.status, high.status]).toEqual([201, 201]);
    const pv = (body: unknown) => q.call('POST', '/studies/resolve-preview', body);
    expect((await pv({ pathname: '/app/x' })).body.study_ref).toBe(high.body.study.ref);
    await q.call('PATCH', '/studies/high', { status: 'paused' });
    expect((await pv({ pathname: '/app/x' })).body.study_ref).toBe(low.body.study.ref);
    await q.call('PATCH', '/studies/low', { status: 'paused' });
    // Only paused studies cover /app now: the untargeted starter still answers there.
    const starterRef = (await q.call('GET', '/studies/starter-study')).body.study.ref;
    expect((await pv({ pathname: '/app/x' })).body).toMatchObject({ outcome: 'match', study_ref: starterRef });
    await q.call('PATCH', '/studies/starter-study', { status: 'paused' });
    expect((await pv({ pathname: '/app/x' })).body).toEqual({ outcome: 'unavailable', study_ref: high.body.study.ref, reason: 'inactive' });
    expect((await pv({ pathname: '/elsewhere' })).body).toEqual({ outcome: 'no_match' });

    // Languages: a study only for German does not answer English pages.
    await make('De', visibility([['include', 'exact', '/de']], { languages: ['de'] }), { status: 'active' });
    expect((await pv({ pathname: '/de', language: 'en' })).body.outcome).toBe('no_match');
    expect((await pv({ pathname: '/de', language: 'de-AT' })).body.outcome).toBe('match');
    expect((await pv({ pathname: '/de' })).body.outcome).toBe('match');

    // A stored configuration that no longer validates is reported, and blocks activation.
    const broken = await make('Broken', visibility([['include', 'exact', '/broken']]));
    await svc.services.db.pool.query(`UPDATE studies SET invitation_json = '{"launcher": {}}' WHERE id = $1`, [broken.body.study.ref]);
    expect((await q.call('GET', '/studies/broken')).body.study.invitation_state).toBe('invalid');
    const activate = await q.call('PATCH', '/studies/broken', { status: 'active' });
    expect(activate.status).toBe(422);
    expect(activate.body).toMatchObject({ code: 'study_placement_configuration_invalid', study_ref: broken.body.study.ref, configuration: 'invitation' });

    // Ties that slipped past the checks (written straight to the database) read as ambiguous.
    const tie1 = await make('Tie one', visibility([['include', 'exact', '/tie']]));
    const tie2 = await make('Tie two', visibility([['include', 'exact', '/tie']]));
    await svc.services.db.pool.query(`UPDATE studies SET status = 'active' WHERE id = ANY($1)`, [[tie1.body.study.ref, tie2.body.study.ref]]);
    expect((await pv({ pathname: '/tie' })).body).toEqual({
      outcome: 'ambiguous',
      reason: 'configuration_ambiguous',
      ambiguous_study_refs: [tie1.body.study.ref, tie2.body.study.ref].sort(),
    });
    // Order breaks the tie once set.
    await svc.services.db.pool.query('UPDATE studies SET visibility_json = $2 WHERE id = $1', [tie1.body.study.ref, JSON.stringify(visibility([['include', 'exact', '/tie']], { order: 3 }))]);
    expect((await pv({ pathname: '/tie' })).body.study_ref).toBe(tie2.body.study.ref);
  });

  it('gives a recruitment URL to a direct-link study once an origin is allowed', async () => {
    const direct = { ...validInvitation, presentation_mode: 'direct_link' };
    const res = await p.call('POST', '/studies', { title: 'Direct', script: validScript, invitation: direct, visibility: { version: 1, enabled: false } });
    expect(res.body.study.recruitment_url).toBeNull();
    const upd = await p.call('PATCH', '/studies/direct', { allowed_origins: ['https://app.example.com'] });
    expect(upd.body.study.recruitment_url).toBe('https://app.example.com/?verbatim_study=direct');
    const badOrigin = await p.call('PATCH', '/studies/direct', { allowed_origins: ['https://app.example.com/path'] });
    expect(badOrigin.status).toBe(400);
    expect(badOrigin.body.error).toContain('allowed_origins.0');
  });

  it('validates preview input', async () => {
    expect((await preview({})).status).toBe(400);
    expect((await preview({ pathname: 'no-slash' })).status).toBe(400);
    expect((await preview({ pathname: '/a', url: 'https://x.example/a' })).status).toBe(400);
    expect((await preview({ url: 'not a url' })).status).toBe(400);
  });
});

describe('a refused placement changes nothing', () => {
  let a: Awaited<ReturnType<typeof ownerWithProject>>;
  beforeAll(async () => {
    a = await ownerWithProject(svc, 'atomic@example.com', 'Atomic project');
  });
  const rows = async (table: 'studies' | 'intakes') =>
    (await svc.services.db.pool.query(`SELECT id, title, status, updated_at FROM ${table} WHERE project_id = $1 ORDER BY id`, [a.project.ref])).rows;

  it('leaves no study and no auto-created intake when a create is refused after both were written', async () => {
    const [studiesBefore, intakesBefore] = [await rows('studies'), await rows('intakes')];
    expect(studiesBefore).toHaveLength(1); // the starter study, untargeted and active
    const refused = await a.call('POST', '/studies', { title: 'Second everywhere', script: validScript, status: 'active', auto_create_intake: true });
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('study_placement_conflict');
    expect(await rows('studies')).toEqual(studiesBefore);
    expect(await rows('intakes')).toEqual(intakesBefore);
  });

  it('keeps a study as it was when an update is refused after it was written', async () => {
    const vis = visibility([['include', 'exact', '/atomic']]);
    expect((await a.call('POST', '/studies', { title: 'Placed', script: validScript, visibility: vis, status: 'active' })).status).toBe(201);
    const draft = await a.call('POST', '/studies', { title: 'Waiting', script: validScript, visibility: vis });
    expect(draft.status).toBe(201);
    const refused = await a.call('PATCH', `/studies/${draft.body.study.ref}`, { status: 'active', title: 'Renamed' });
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('study_placement_conflict');
    expect((await a.call('GET', `/studies/${draft.body.study.ref}`)).body.study).toMatchObject({ title: 'Waiting', status: 'draft', version: 1, updated_at: draft.body.study.updated_at });
  });
});
