import { createRoot } from 'react-dom/client';
import { QueryClient, QueryClientProvider, useQuery, useQueryClient } from '@tanstack/react-query';
import { StrictMode, useEffect } from 'react';
import { Redirect, Route, Router, Switch, useLocation, useSearch } from 'wouter';
import { api, data, whenSignedOut } from './api.ts';
import { Shell } from './shell.tsx';
import { SignIn } from './pages/sign-in.tsx';
import { Projects } from './pages/projects.tsx';
import { ProjectHome } from './pages/project-home.tsx';
import { ProjectSettings } from './pages/project-settings.tsx';
import { Findings } from './pages/findings.tsx';
import { FindingDetail } from './pages/finding.tsx';
import { EvidenceReview } from './pages/evidence/page.tsx';
import { Studies } from './pages/studies.tsx';
import { StudyEditor } from './pages/study-editor.tsx';
import { Interviews } from './pages/interviews.tsx';
import { Interview } from './pages/interview.tsx';
import { InvitationPage } from './pages/invitation.tsx';
import { afterSignIn, forgetWhereTo, rememberWhereTo } from './after-sign-in.ts';

const queries = new QueryClient({ defaultOptions: { queries: { retry: (n, err) => n < 2 && (err as { status?: number }).status !== 401, staleTime: 5_000 } } });

/** Who is signed in: the session behind the auth_token cookie, or none. */
export function useSession() {
  return useQuery({ queryKey: ['session'], queryFn: async () => data(await api.GET('/api/auth/session')), retry: false });
}

/** Signed out on the way to a page (an invitation's link): sign in first, then go there. */
function ToSignIn() {
  const [location] = useLocation();
  const search = useSearch();
  rememberWhereTo(`${location}${search ? `?${search}` : ''}`);
  return <Redirect to="/sign-in" />;
}

/** Signed in: where they were going, or the project list. */
function BackFromSignIn() {
  const to = afterSignIn();
  useEffect(() => forgetWhereTo(), []);
  return <Redirect to={to ?? '/projects'} />;
}

function Workspace() {
  const session = useSession();
  const client = useQueryClient();
  const [, navigate] = useLocation();
  whenSignedOut(() => {
    // Where they were (an invitation's link, a page when the session ended) is where signing in goes back to.
    rememberWhereTo(`${location.pathname.replace(/^\/app(?=\/|$)/, '') || '/'}${location.search}`);
    client.setQueryData(['session'], null);
    navigate('/sign-in');
  });
  if (session.isPending) return <p className="muted" role="status">Loading…</p>;
  const signedIn = !!session.data;
  return (
    <Switch>
      <Route path="/sign-in">{signedIn ? <BackFromSignIn /> : <SignIn />}</Route>
      <Route>
        {!signedIn ? (
          <ToSignIn />
        ) : (
          <Shell user={session.data!.user}>
            <Switch>
              <Route path="/projects" component={Projects} />
              <Route path="/invitation" component={InvitationPage} />
              <Route path="/p/:org/:project/settings">{(p) => <ProjectSettings org={p.org} project={p.project} />}</Route>
              <Route path="/p/:org/:project/findings/:ref">{(p) => <FindingDetail org={p.org} project={p.project} findingRef={p.ref} />}</Route>
              <Route path="/p/:org/:project/findings">{(p) => <Findings org={p.org} project={p.project} />}</Route>
              <Route path="/p/:org/:project/evidence">{(p) => <EvidenceReview org={p.org} project={p.project} />}</Route>
              <Route path="/p/:org/:project/studies">{(p) => <Studies org={p.org} project={p.project} />}</Route>
              <Route path="/p/:org/:project/studies/:ref">{(p) => <StudyEditor key={p.ref} org={p.org} project={p.project} studyRef={p.ref} />}</Route>
              <Route path="/p/:org/:project/interviews">{(p) => <Interviews org={p.org} project={p.project} />}</Route>
              <Route path="/p/:org/:project/interviews/:id">{(p) => <Interview key={p.id} org={p.org} project={p.project} id={p.id} />}</Route>
              <Route path="/p/:org/:project">{(p) => <ProjectHome org={p.org} project={p.project} />}</Route>
              <Route>
                <Redirect to="/projects" />
              </Route>
            </Switch>
          </Shell>
        )}
      </Route>
    </Switch>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queries}>
      <Router base="/app">
        <Workspace />
      </Router>
    </QueryClientProvider>
  </StrictMode>,
);
