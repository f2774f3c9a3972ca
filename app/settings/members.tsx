import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, data } from '../api.ts';
import { Problem } from '../shell.tsx';
import { when } from './paths.ts';

type Role = 'owner' | 'admin' | 'member';

/** Who belongs to the project's organization, and the invitations that are out. */
export function Members({ org }: { org: string }) {
  const path = { orgHandle: org };
  const client = useQueryClient();
  const members = useQuery({ queryKey: ['members', org], queryFn: async () => data(await api.GET('/api/orgs/{orgHandle}/members', { params: { path } })).members });
  const invitations = useQuery({ queryKey: ['invitations', org], queryFn: async () => data(await api.GET('/api/orgs/{orgHandle}/invitations', { params: { path } })).invitations, retry: false });
  const revoke = useMutation({
    mutationFn: async (id: string) => data(await api.DELETE('/api/orgs/{orgHandle}/invitations/{invitationId}', { params: { path: { orgHandle: org, invitationId: id } } })),
    onSuccess: () => client.invalidateQueries({ queryKey: ['invitations', org] }),
  });
  const pending = (invitations.data ?? []).filter((i) => i.status === 'pending');
  return (
    <section aria-labelledby="members" className="panel stack settings">
      <h2 id="members">Members of {org}</h2>
      <p className="muted small">Everyone in the organization can reach its projects.</p>
      <Problem error={members.error} />
      {members.data ? (
        <table>
          <caption className="sr">Members</caption>
          <thead>
            <tr>
              <th scope="col">Person</th>
              <th scope="col">Role</th>
              <th scope="col">Joined</th>
            </tr>
          </thead>
          <tbody>
            {members.data.map((m) => (
              <tr key={m.user_id}>
                <td>
                  {m.name ? `${m.name} ` : ''}
                  <span className={m.name ? 'muted' : undefined}>{m.email}</span>
                </td>
                <td>{m.role}</td>
                <td>{new Date(m.joined_at).toLocaleDateString()}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      <InviteForm org={org} />
      <h3 id="invitations">Pending invitations</h3>
      {/* Only owners and admins see invitations; others get the envelope's reason. */}
      <Problem error={invitations.error ?? revoke.error} />
      {pending.length ? (
        <ul className="cards" aria-labelledby="invitations">
          {pending.map((i) => (
            <li key={i.id} className="row spread" data-invitation={i.email}>
              <span>
                <strong>{i.email}</strong> <span className="muted">as {i.role} · expires {when(i.expires_at)}</span>
              </span>
              <button type="button" className="secondary" aria-label={`Revoke the invitation for ${i.email}`} onClick={() => revoke.mutate(i.id)} disabled={revoke.isPending}>
                Revoke
              </button>
            </li>
          ))}
        </ul>
      ) : invitations.data ? (
        <p className="muted">No pending invitations.</p>
      ) : null}
    </section>
  );
}

function InviteForm({ org }: { org: string }) {
  const client = useQueryClient();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('member');
  const invite = useMutation({
    mutationFn: async () => data(await api.POST('/api/orgs/{orgHandle}/invitations', { params: { path: { orgHandle: org } }, body: { email: email.trim(), role } })),
    onSuccess: () => {
      setEmail('');
      void client.invalidateQueries({ queryKey: ['invitations', org] });
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    invite.mutate();
  };
  return (
    <form onSubmit={submit} className="stack" aria-labelledby="invite">
      <h3 id="invite">Invite someone</h3>
      <div className="settings-invite">
        <label className="stack">
          <span>E-mail</span>
          <input type="email" required autoComplete="off" value={email} onChange={(e) => setEmail(e.target.value)} />
        </label>
        <label className="stack">
          <span>Role</span>
          <select value={role} onChange={(e) => setRole(e.target.value as Role)}>
            <option value="member">Member</option>
            <option value="admin">Admin</option>
            <option value="owner">Owner</option>
          </select>
        </label>
        <button type="submit" disabled={!email.trim() || invite.isPending}>
          Send invitation
        </button>
      </div>
      <p role="status" className="muted">
        {invite.isSuccess ? `Invitation sent to ${invite.data.invitation.email}.` : ''}
      </p>
      <Problem error={invite.error} />
    </form>
  );
}
