import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './helpers/service.ts';
import { smtpInbox, type Inbox } from './helpers/smtp.ts';

let svc: TestService;
let inbox: Inbox;
let owner: { token: string; orgHandle: string; userId: string };

beforeAll(async () => {
  inbox = await smtpInbox();
  svc = await startTestService({ env: { SMTP_URL: inbox.url } });
  owner = await svc.login('org-owner@example.com');
});
afterAll(async () => {
  await svc?.stop();
  await inbox?.close();
});

const tokenIn = (address: string) => {
  const m = [...inbox.messages].reverse().find((x) => x.to.some((t) => t.toLowerCase() === address.toLowerCase()));
  return m ? /token=(inv_[A-Za-z0-9_-]+)/.exec(m.raw.replace(/=\r?\n/g, '').replace(/=3D/gi, '='))?.[1] ?? null : null;
};

describe('organizations', () => {
  it('creates a team organization and lists mine at /api/organizations/me', async () => {
    const created = await svc.api('POST', '/api/organizations', { token: owner.token, body: { handle: 'acme-research', name: 'Acme Research' } });
    expect(created.status).toBe(201);
    expect(created.body.organization).toMatchObject({ handle: 'acme-research', role: 'owner', personal: false });
    const mine = await svc.api('GET', '/api/organizations/me', { token: owner.token });
    expect(mine.body.organizations.map((o: any) => o.handle)).toEqual([owner.orgHandle, 'acme-research']);
    expect((await svc.api('POST', '/api/organizations', { token: owner.token, body: { handle: 'acme-research', name: 'Again' } })).status).toBe(409);
  });

  it('invites by e-mail; the invitee inspects and accepts; resend rotates the link; revoke closes it', async () => {
    const inv = await svc.api('POST', '/api/orgs/acme-research/invitations', { token: owner.token, body: { email: 'Invitee@Example.com', role: 'admin' } });
    expect(inv.status).toBe(201);
    expect(inv.body.invitation).toMatchObject({ email: 'Invitee@Example.com', role: 'admin', status: 'pending', org_handle: 'acme-research' });
    const first = tokenIn('Invitee@Example.com')!;
    expect(first).toMatch(/^inv_/);
    expect((await svc.api('POST', '/api/orgs/acme-research/invitations', { token: owner.token, body: { email: 'invitee@example.com' } })).body.code).toBe('invitation_pending');

    const resent = await svc.api('POST', `/api/orgs/acme-research/invitations/${inv.body.invitation.id}/resend`, { token: owner.token });
    expect(resent.status).toBe(200);
    const second = tokenIn('Invitee@Example.com')!;
    expect(second).not.toBe(first);

    const invitee = await svc.login('invitee@example.com');
    expect((await svc.api('GET', `/api/invitations/inspect?token=${first}`, { token: invitee.token })).status).toBe(404);
    const look = await svc.api('GET', `/api/invitations/inspect?token=${second}`, { token: invitee.token });
    expect(look.body.invitation).toMatchObject({ org_name: 'Acme Research', role: 'admin', status: 'pending' });
    const stranger = await svc.login('someone-else@example.com');
    expect((await svc.api('POST', '/api/invitations/accept', { token: stranger.token, body: { token: second } })).body.code).toBe('invitation_email_mismatch');
    const accepted = await svc.api('POST', '/api/invitations/accept', { token: invitee.token, body: { token: second } });
    expect(accepted.body).toEqual({ org_handle: 'acme-research', role: 'admin' });
    expect((await svc.api('POST', '/api/invitations/accept', { token: invitee.token, body: { token: second } })).body.code).toBe('invitation_closed');
    const members = await svc.api('GET', '/api/orgs/acme-research/members', { token: owner.token });
    expect(members.body.members.map((m: any) => [m.email, m.role])).toEqual([['org-owner@example.com', 'owner'], ['invitee@example.com', 'admin']]);

    // An admin may invite members but not owners; members may not invite.
    expect((await svc.api('POST', '/api/orgs/acme-research/invitations', { token: invitee.token, body: { email: 'boss@example.com', role: 'owner' } })).status).toBe(403);
    const next = await svc.api('POST', '/api/orgs/acme-research/invitations', { token: invitee.token, body: { email: 'later@example.com' } });
    expect(next.status).toBe(201);
    expect((await svc.api('DELETE', `/api/orgs/acme-research/invitations/${next.body.invitation.id}`, { token: owner.token })).body).toEqual({ success: true });
    const later = await svc.login('later@example.com');
    expect((await svc.api('POST', '/api/invitations/accept', { token: later.token, body: { token: tokenIn('later@example.com') } })).body.code).toBe('invitation_closed');
    expect((await svc.api('POST', '/api/orgs/acme-research/invitations', { token: later.token, body: { email: 'x@example.com' } })).status).toBe(404);
    const list = await svc.api('GET', '/api/orgs/acme-research/invitations', { token: owner.token });
    expect(list.body.invitations.map((i: any) => i.status)).toEqual(['revoked', 'accepted']);
    expect((await svc.api('POST', '/api/orgs/acme-research/invitations', { token: owner.token, body: { email: 'invitee@example.com' } })).body.code).toBe('already_member');
  });

  it('keeps the last owner: they can neither leave nor be demoted', async () => {
    expect((await svc.api('DELETE', `/api/orgs/acme-research/members/${owner.userId}`, { token: owner.token })).body.code).toBe('last_owner');
    expect((await svc.api('PATCH', `/api/orgs/acme-research/members/${owner.userId}`, { token: owner.token, body: { role: 'member' } })).body.code).toBe('last_owner');
  });
});

describe('sessions', () => {
  it('revokes every other session, logs out with the cookie cleared, and records onboarding', async () => {
    const a = await svc.login('many-devices@example.com');
    const b = await svc.login('many-devices@example.com');
    const c = await svc.login('many-devices@example.com');
    const res = await svc.api('POST', '/api/auth/sessions/revoke-older', { token: a.token });
    expect(res.body).toEqual({ revoked: 2 });
    expect((await svc.api('GET', '/api/auth/session', { token: b.token })).status).toBe(401);
    expect((await svc.api('GET', '/api/auth/session', { token: c.token })).status).toBe(401);
    expect((await svc.api('GET', '/api/auth/session', { token: a.token })).status).toBe(200);

    const onboard = await svc.api('POST', '/api/auth/onboarding', { token: a.token, body: { org_handle: 'many-devices-hq', tour_state: { studies: true } } });
    expect(onboard.body).toMatchObject({ personal_org_handle: 'many-devices-hq', onboarding: { tour: { studies: true }, completed_at: expect.any(String) } });
    expect((await svc.api('POST', '/api/auth/onboarding', { token: a.token, body: { org_handle: 'acme-research' } })).body.code).toBe('handle_taken');

    const out = await fetch(`${svc.url}/api/auth/logout`, { method: 'POST', headers: { cookie: `auth_token=${a.token}` } });
    expect(out.status).toBe(200);
    expect(out.headers.get('set-cookie')).toMatch(/auth_token=;.*Expires=Thu, 01 Jan 1970/i);
    expect((await svc.api('GET', '/api/auth/session', { token: a.token })).status).toBe(401);
  });
});
