import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClient, QueryClientProvider, useQuery, useQueryClient } from '@tanstack/react-query';
import { Redirect, Route, Router, Switch, useLocation } from 'wouter';
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

const queries = new QueryClient({ defaultOptions: { queries: { retry: (n, err) => n < 2 && (err as { status?: number }).status !== 401, staleTime: 5_000 } } });

/** Who is signed in: the session behind the auth_token cookie, or none. */
export function useSession() {
  return useQuery({ queryKey: ['session'], queryFn: async () => data(await api.GET('/api/auth/session')), retry: false });
}

function Workspace() {
  const session = useSession();
  const client = useQueryClient();
  const [, navigate] = useLocation();
  whenSignedOut(() => {
    client.setQueryData(['session'], null);
    navigate('/sign-in');
  });
  if (session.isPending) return <p className="muted" role="status">Loading…</p>;
  const signedIn = !!session.data;
  return (
    <Switch>
      <Route path="/sign-in">{signedIn ? <Redirect to="/projects" /> : <SignIn />}</Route>
      <Route>
        {!signedIn ? (
          <Redirect to="/sign-in" />
        ) : (
          <Shell user={session.data!.user}>
            <Switch>
              <Route path="/projects" component={Projects} />
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
