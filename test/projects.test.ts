import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './helpers/service.ts';

let svc: TestService;
let owner: { token: string; orgHandle: string; userId: string };
let stranger: { token: string; orgHandle: string };

beforeAll(async () => {
  svc = await startTestService();
  owner = await svc.login('owner@example.com', { name: 'Olive Owner' });
  stranger = await svc.login('stranger@example.com');
});
afterAll(() => svc?.stop());

const P = (org: string, project: string) => `/api/orgs/${org}/projects/${project}`;

describe('projects over REST', () => {
  it('creates a project with an active starter study and its SDK key', async () => {
    const res = await svc.api('POST', `/api/orgs/${owner.orgHandle}/projects`, {
      token: owner.token,
      body: { name: 'Checkout Research', description: 'Why carts are abandoned', codehost_repo_url: 'acme/shop' },
    });
    expect(res.status).toBe(201);
    const p = res.body.project;
    expect(p).toMatchObject({
      handle: 'checkout-research',
      name: 'Checkout Research',
      description: 'Why carts are abandoned',
      org_handle: owner.orgHandle,
      project_handle: 'checkout-research',
      project_ref: `${owner.orgHandle}/checkout-research`,
      canonical_path: `/o/${owner.orgHandle}/p/checkout-research`,
      can_manage_credits: true,
      codehost_repo_url: 'acme/shop',
      codehost_default_branch: 'main',
      codehost_installation_id: null,
      tracker_team_id: null,
    });
    expect(p.public_key).toMatch(/^pk_[A-Za-z0-9_-]{20,}$/);
    expect(p.ref).toMatch(/^prj_/);
    expect(p.organization_id).toMatch(/^org_/);
    const overview = await svc.api('GET', `${P(owner.orgHandle, 'checkout-research')}/overview`, { token: owner.token });
    expect(overview.status).toBe(200);
    expect(overview.body.totals).toMatchObject({ studies: 1, active_studies: 1 });
    expect(overview.body.studies[0]).toMatchObject({ handle: 'starter-study', status: 'active' });
  });

  it('shows the widget launcher on a fresh project: the starter study is placed everywhere with an invitation', async () => {
    const key = (await svc.api('GET', P(owner.orgHandle, 'checkout-research'), { token: owner.token })).body.project.public_key;
    const setup = await svc.api('GET', `${P(owner.orgHandle, 'checkout-research')}/widget-setup`, { token: owner.token });
    const demo = new URL(setup.body.demo_url);
    expect(demo.pathname).toBe('/sdk/demo');
    expect(demo.searchParams.get('key')).toBe(key);
    expect((await svc.api('GET', `${demo.pathname}${demo.search}`)).status).toBe(200);
    // The widget on the demo page asks for its placement with the project key; a launcher needs a
    // match with an invitation that is not direct_link (widget/index.ts).
    for (const pathname of ['/', '/checkout']) {
      const placement = await svc.api('GET', `/api/sdk/placement?pathname=${encodeURIComponent(pathname)}`, { headers: { 'x-project-key': key } });
      expect(placement.status).toBe(200);
      expect(placement.body).toMatchObject({ outcome: 'match', study_title: expect.any(String), invitation: { presentation_mode: 'passive', launcher: { label: 'Share feedback', icon: 'feedback' } } });
    }
    const study = await svc.api('GET', '/api/sdk/study/starter-study', { headers: { 'x-project-key': key } });
    expect(study.body.study).toMatchObject({ status: 'active', invitation: { presentation_mode: 'passive' } });
  });

  it('gives a second project with the same name its own handle', async () => {
    const res = await svc.api('POST', `/api/orgs/${owner.orgHandle}/projects`, { token: owner.token, body: { name: 'Checkout Research' } });
    expect(res.status).toBe(201);
    expect(res.body.project.handle).toBe('checkout-research-2');
  });

  it('lists, reads with members, updates and deletes', async () => {
    const list = await svc.api('GET', `/api/orgs/${owner.orgHandle}/projects`, { token: owner.token });
    expect(list.status).toBe(200);
    expect(list.body.projects.map((p: { handle: string }) => p.handle)).toEqual(['checkout-research-2', 'checkout-research']);

    const read = await svc.api('GET', P(owner.orgHandle, 'checkout-research'), { token: owner.token });
    expect(read.status).toBe(200);
    expect(read.body.members).toEqual([expect.objectContaining({ email: 'owner@example.com', role: 'owner', name: 'Olive Owner' })]);

    const upd = await svc.api('PATCH', P(owner.orgHandle, 'checkout-research-2'), { token: owner.token, body: { name: 'Renamed', description: null } });
    expect(upd.status).toBe(200);
    expect(upd.body.project).toMatchObject({ name: 'Renamed', description: null, handle: 'checkout-research-2' });

    const del = await svc.api('DELETE', P(owner.orgHandle, 'checkout-research-2'), { token: owner.token });
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ success: true });
    const gone = await svc.api('GET', P(owner.orgHandle, 'checkout-research-2'), { token: owner.token });
    expect(gone.status).toBe(404);
    expect((await svc.services.db.pool.query('SELECT count(*)::int AS n FROM studies WHERE project_id = $1', [upd.body.project.ref])).rows[0].n).toBe(0);
  });

  it('provisions the starter study idempotently', async () => {
    const path = `${P(owner.orgHandle, 'checkout-research')}/starter-study`;
    const first = await svc.api('POST', path, { token: owner.token });
    expect(first.status).toBe(200);
    expect(first.body.outcome).toBe('already_present');
    const { rows: [project] } = await svc.services.db.pool.query(`SELECT id FROM projects WHERE handle = 'checkout-research'`);
    await svc.services.db.pool.query('DELETE FROM studies WHERE project_id = $1', [project!.id]);
    const again = await svc.api('POST', path, { token: owner.token });
    expect(again.body).toEqual({ outcome: 'provisioned', study_ref: expect.stringMatching(/^std_/) });
    const third = await svc.api('POST', path, { token: owner.token });
    expect(third.body).toEqual({ outcome: 'already_present', study_ref: again.body.study_ref });
    expect((await svc.services.db.pool.query('SELECT count(*)::int AS n FROM studies WHERE project_id = $1', [project!.id])).rows[0].n).toBe(1);
  });

  it('answers 404, never 403, to a non-member reading another org\'s project', async () => {
    const res = await svc.api('GET', P(owner.orgHandle, 'checkout-research'), { token: stranger.token });
    expect(res.status).toBe(404);
    expect(res.body.error).toBeTruthy();
    const missing = await svc.api('GET', P(owner.orgHandle, 'no-such-project'), { token: stranger.token });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe(res.body.error);
    const list = await svc.api('GET', `/api/orgs/${owner.orgHandle}/projects`, { token: stranger.token });
    expect(list.status).toBe(404);
    const create = await svc.api('POST', `/api/orgs/${owner.orgHandle}/projects`, { token: stranger.token, body: { name: 'Intrusion' } });
    expect(create.status).toBe(404);
  });

  it('enforces roles: admins update, only owners delete, members do neither', async () => {
    const admin = await svc.login('admin@example.com');
    const member = await svc.login('member@example.com');
    for (const [email, role] of [['admin@example.com', 'admin'], ['member@example.com', 'member']]) {
      const add = await svc.api('POST', `/api/orgs/${owner.orgHandle}/members`, { token: owner.token, body: { email, role } });
      expect(add.status).toBe(201);
      expect(add.body.member.role).toBe(role);
    }
    const path = P(owner.orgHandle, 'checkout-research');
    expect((await svc.api('GET', path, { token: member.token })).status).toBe(200);
    const memberPatch = await svc.api('PATCH', path, { token: member.token, body: { name: 'Nope' } });
    expect(memberPatch.status).toBe(403);
    expect(memberPatch.body.code).toBe('role_required');
    const adminPatch = await svc.api('PATCH', path, { token: admin.token, body: { name: 'Checkout Research v2' } });
    expect(adminPatch.status).toBe(200);
    expect(adminPatch.body.project.can_manage_credits).toBe(true);
    expect((await svc.api('DELETE', path, { token: admin.token })).status).toBe(403);
    expect((await svc.api('DELETE', path, { token: member.token })).status).toBe(403);
    expect((await svc.api('GET', path, { token: owner.token })).body.project.name).toBe('Checkout Research v2');
    const memberView = await svc.api('GET', path, { token: member.token });
    expect(memberView.body.project.can_manage_credits).toBe(false);
  });

  it('keeps at least one owner', async () => {
    const demote = await svc.api('PATCH', `/api/orgs/${owner.orgHandle}/members/${owner.userId}`, { token: owner.token, body: { role: 'admin' } });
    expect(demote.status).toBe(409);
    expect(demote.body.code).toBe('last_owner');
  });

  it('resolves a project by handle or id, only within the caller\'s orgs', async () => {
    const read = await svc.api('GET', P(owner.orgHandle, 'checkout-research'), { token: owner.token });
    const { ref, organization_id } = read.body.project;
    const byIds = await svc.api('GET', `/api/me/project-resolve?org=${organization_id}&project=${ref}`, { token: owner.token });
    expect(byIds.status).toBe(200);
    expect(byIds.body).toEqual({
      organization_id,
      project_id: ref,
      org_handle: owner.orgHandle,
      project_handle: 'checkout-research',
      project_ref: `${owner.orgHandle}/checkout-research`,
      canonical_path: `/o/${owner.orgHandle}/p/checkout-research`,
    });
    const byHandles = await svc.api('GET', `/api/me/project-resolve?org=${owner.orgHandle}&project=checkout-research`, { token: owner.token });
    expect(byHandles.body).toEqual(byIds.body);
    expect((await svc.api('GET', `/api/me/project-resolve?org=${owner.orgHandle}&project=checkout-research`, { token: stranger.token })).status).toBe(404);
    expect((await svc.api('GET', `/api/me/project-resolve?org=${owner.orgHandle}`, { token: owner.token })).status).toBe(400);
  });

  it('rolls up the organization', async () => {
    const res = await svc.api('GET', `/api/organizations/${owner.orgHandle}/overview`, { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.body.organization).toMatchObject({ handle: owner.orgHandle, personal: true, role: 'owner' });
    expect(res.body.totals).toEqual({ projects: 1, members: 3, studies: 1 });
    expect(res.body.projects).toEqual([{ project_ref: `${owner.orgHandle}/checkout-research`, name: 'Checkout Research v2', studies: 1, active_studies: 1 }]);
    expect((await svc.api('GET', `/api/organizations/${owner.orgHandle}/overview`, { token: stranger.token })).status).toBe(404);
  });
});

describe('bad input', () => {
  const create = (body: unknown, raw?: string) =>
    svc.api('POST', `/api/orgs/${owner.orgHandle}/projects`, { token: owner.token, ...(raw !== undefined ? { raw } : { body }) });

  it('refuses malformed JSON with the envelope', async () => {
    const res = await create(undefined, '{"name": ');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: expect.stringMatching(/malformed json/i), code: 'malformed_json' });
    expect(res.body.requestId).toBe(res.headers.get('x-request-id'));
  });

  it('names the field on wrong types, unknown fields and over-long values, and writes nothing', async () => {
    const before = (await svc.services.db.pool.query('SELECT count(*)::int AS n FROM projects')).rows[0].n;
    const wrongType = await create({ name: 42 });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.error).toMatch(/^name: /);
    const unknown = await create({ name: 'Fine', colour: 'blue' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatch(/colour/);
    const long = await create({ name: 'x'.repeat(10_000) });
    expect(long.status).toBe(400);
    expect(long.body.error).toMatch(/^name: .*120/);
    const repo = await create({ name: 'Fine', codehost_repo_url: 'https://github.com/acme/shop' });
    expect(repo.status).toBe(400);
    expect(repo.body.error).toMatch(/codehost_repo_url/);
    const notObject = await create(undefined, '[1,2]');
    expect(notObject.status).toBe(400);
    expect((await svc.services.db.pool.query('SELECT count(*)::int AS n FROM projects')).rows[0].n).toBe(before);
  });

  it('answers 401 with the envelope for missing, forged and expired tokens', async () => {
    const path = P(owner.orgHandle, 'checkout-research');
    const missing = await svc.api('GET', path);
    expect(missing.status).toBe(401);
    expect(missing.body).toMatchObject({ error: expect.any(String), code: 'unauthenticated', requestId: expect.any(String) });

    const [h, p] = owner.token.split('.');
    const forged = await svc.api('GET', path, { token: `${h}.${p}.${'A'.repeat(43)}` });
    expect(forged.status).toBe(401);
    expect(forged.body.code).toBe('invalid_token');

    const { SignJWT } = await import('jose');
    const claims = JSON.parse(Buffer.from(p, 'base64url').toString());
    const selfSigned = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode('not-the-server-key-but-32-bytes!!'));
    expect((await svc.api('GET', path, { token: selfSigned })).status).toBe(401);

    const { rows: rows } = await svc.services.db.pool.query(`SELECT value FROM server_secrets WHERE name = 'user_token_key'`);
    const key = Buffer.from((rows as Array<{ value: string }>)[0].value, 'base64url');
    const expired = await new SignJWT({ ...claims, exp: Math.floor(Date.now() / 1000) - 60 }).setProtectedHeader({ alg: 'HS256' }).sign(key);
    const exp = await svc.api('GET', path, { token: expired });
    expect(exp.status).toBe(401);
    expect(exp.body.code).toBe('token_expired');

    const garbage = await svc.api('GET', path, { headers: { authorization: 'Basic abc' } });
    expect(garbage.status).toBe(401);
  });

  it('refuses a revoked session at once, however it was revoked', async () => {
    const fresh = await svc.login('owner@example.com');
    const path = P(owner.orgHandle, 'checkout-research');
    expect((await svc.api('GET', path, { token: fresh.token })).status).toBe(200);
    await svc.services.db.pool.query('UPDATE user_sessions SET revoked_at = now()');
    // Written behind the service's back: the trigger's notification is all that tells this process.
    await svc.services.changes.settle();
    const res = await svc.api('GET', path, { token: fresh.token });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('session_revoked');
  });
});
