import type { ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useLocation } from 'wouter';
import { postAuth } from './api.ts';

/** The frame around every signed-in page: the product, a skip link, and who is signed in. */
export function Shell({ user, children }: { user: { email: string; name: string | null }; children: ReactNode }) {
  const client = useQueryClient();
  const [, navigate] = useLocation();
  const signOut = async () => {
    await postAuth('/api/auth/logout', {}).catch(() => {});
    client.clear();
    navigate('/sign-in');
  };
  return (
    <>
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="top">
        <Link href="/projects" className="brand">
          Verbatim
        </Link>
        <span className="muted who">{user.name ?? user.email}</span>
        <button type="button" className="secondary" onClick={signOut}>
          Sign out
        </button>
      </header>
      <main id="main" tabIndex={-1}>
        {children}
      </main>
    </>
  );
}

/** An API error in plain words, with the action the envelope suggests. */
export function Problem({ error }: { error: unknown }) {
  if (!error) return null;
  const e = error as { message?: string; action?: string };
  return (
    <div className="problem" role="alert">
      <p>{e.message ?? 'Something went wrong.'}</p>
      {e.action ? <p className="muted">{e.action}</p> : null}
    </div>
  );
}
