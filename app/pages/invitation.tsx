import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useLocation, useSearch } from 'wouter';
import { api, data } from '../api.ts';
import { Problem } from '../shell.tsx';

/** An invitation's link from its e-mail: who invites whom to what, and accepting it. */
export function InvitationPage() {
  const token = new URLSearchParams(useSearch()).get('token') ?? '';
  const client = useQueryClient();
  const [, navigate] = useLocation();
  const invitation = useQuery({
    queryKey: ['invitation', token],
    enabled: token.length >= 10,
    retry: false,
    queryFn: async () => data(await api.GET('/api/invitations/inspect', { params: { query: { token } } })).invitation,
  });
  const accept = useMutation({
    mutationFn: async () => data(await api.POST('/api/invitations/accept', { body: { token } })),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: ['orgs'] });
      void client.invalidateQueries({ queryKey: ['projects'] });
      navigate('/projects');
    },
  });
  const inv = invitation.data;
  return (
    <>
      <h1>Invitation</h1>
      {token.length < 10 ? <p role="alert">This link has no invitation in it: open the link from the invitation e-mail again.</p> : null}
      {invitation.isPending && token.length >= 10 ? <p className="muted" role="status">Loading…</p> : null}
      <Problem error={invitation.error} />
      {inv ? (
        <section className="panel stack" aria-labelledby="invited">
          <h2 id="invited">Join {inv.org_name}</h2>
          <p>
            <strong>{inv.email}</strong> is invited to join <strong>{inv.org_name}</strong> as {inv.role === 'member' ? 'a member' : `an ${inv.role}`}.
          </p>
          {inv.status === 'pending' ? (
            <p>
              <button type="button" disabled={accept.isPending} onClick={() => accept.mutate()}>
                {accept.isPending ? 'Joining…' : `Accept and join ${inv.org_name}`}
              </button>
            </p>
          ) : (
            <p role="status">This invitation is {inv.status}: ask whoever invited you for a new one.</p>
          )}
          <Problem error={accept.error} />
        </section>
      ) : null}
    </>
  );
}
