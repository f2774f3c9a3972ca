import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { postAuth } from '../api.ts';
import { Problem } from '../shell.tsx';
import { afterSignIn } from '../after-sign-in.ts';

/** Sign-in with a six-digit code sent by e-mail (or a link from `npm run cli -- login --link`). */
export function SignIn() {
  const client = useQueryClient();
  const [email, setEmail] = useState('');
  const [code, setCode] = useState('');
  const [sentTo, setSentTo] = useState<string | null>(null);
  const methods = useQuery({
    queryKey: ['auth-methods'],
    queryFn: async () => (await (await fetch('/api/auth/methods')).json()) as { openid: boolean; openid_issuer: string | null; openid_login: string | null; email_delivery?: 'smtp' | 'outbox' },
  });
  const request = useMutation({ mutationFn: (to: string) => postAuth('/api/auth/email-code', { email: to }), onSuccess: (_r, to) => setSentTo(to) });
  const verify = useMutation({
    mutationFn: () => postAuth('/api/auth/email-code/verify', { email: sentTo, code }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['session'] }),
  });
  const ask = (e: FormEvent) => {
    e.preventDefault();
    request.mutate(email.trim());
  };
  const check = (e: FormEvent) => {
    e.preventDefault();
    verify.mutate();
  };
  return (
    <main id="main" className="narrow">
      <h1>Sign in to Verbatim</h1>
      {!sentTo ? (
        <form onSubmit={ask} className="stack">
          <label htmlFor="email">Work e-mail</label>
          <input id="email" type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
          <button type="submit" disabled={request.isPending}>
            {request.isPending ? 'Sending…' : 'Send me a code'}
          </button>
          <Problem error={request.error} />
        </form>
      ) : (
        <form onSubmit={check} className="stack">
          <p>
            We sent a six-digit code to <strong>{sentTo}</strong>. It works for 10 minutes.
          </p>
          {methods.data?.email_delivery === 'outbox' ? (
            <p className="muted small" role="note">
              This server has no mail server set up (no <code>SMTP_URL</code>): the code is in its outbox. Whoever runs it can read it with <code>npm run cli -- outbox</code>.
            </p>
          ) : null}
          <label htmlFor="code">Code</label>
          <input id="code" inputMode="numeric" autoComplete="one-time-code" pattern="\d{6}" maxLength={6} required value={code} onChange={(e) => setCode(e.target.value.replace(/\D/g, ''))} />
          <button type="submit" disabled={verify.isPending || code.length !== 6}>
            {verify.isPending ? 'Checking…' : 'Sign in'}
          </button>
          <Problem error={verify.error} />
          <button type="button" className="link" onClick={() => (setSentTo(null), setCode(''), verify.reset())}>
            Use another address, or send a new code
          </button>
        </form>
      )}
      {methods.data?.openid ? (
        <p>
          <a className="button secondary" href={`${methods.data.openid_login}?return_to=${encodeURIComponent(`/app${afterSignIn() ?? '/projects'}`)}`}>
            Sign in with {methods.data.openid_issuer}
          </a>
        </p>
      ) : null}
      <p className="muted small">On this machine you can also run <code>npm run cli -- login --link --email you@example.com</code> and open the link it prints.</p>
    </main>
  );
}
