import { useEffect, useState } from 'react';
import { keepDraft, keptDraft } from '../kept-draft.ts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'wouter';
import { api, data } from '../api.ts';
import { Problem } from '../shell.tsx';
import { ProjectNav } from '../project-nav.tsx';
import { studiesKey } from './studies.tsx';
import { MOVES, bodyOf, draftOf, stable, type Draft, type Goal, type Study } from '../studies/draft.ts';
import { useScriptReview } from '../studies/review.ts';
import { Issues, Segments } from '../studies/segments.tsx';
import { InvitationEditor } from '../studies/invitation.tsx';
import { VisibilityEditor } from '../studies/visibility.tsx';
import { PagePreview } from '../studies/preview.tsx';

/** One study: its script, invitation and pages, checked as the author types, with the widget as people will see it. */
export function StudyEditor({ org, project, studyRef }: { org: string; project: string; studyRef: string }) {
  const path = { orgHandle: org, projectHandle: project, studyId: studyRef };
  const study = useQuery({
    queryKey: ['study', org, project, studyRef],
    queryFn: async () => data(await api.GET('/api/orgs/{orgHandle}/projects/{projectHandle}/studies/{studyId}', { params: { path } })).study,
    staleTime: Infinity,
  });
  if (study.error) return <Problem error={study.error} />;
  if (!study.data) return <p className="muted" role="status">Loading…</p>;
  return <Editor org={org} project={project} initial={study.data} />;
}

function Editor({ org, project, initial }: { org: string; project: string; initial: Study }) {
  const client = useQueryClient();
  const path = { orgHandle: org, projectHandle: project, studyId: initial.ref };
  const [saved, setSaved] = useState(initial);
  const keepKey = `study:${initial.ref}:${initial.version}`;
  const [restored] = useState(() => keptDraft<Draft>(keepKey) !== null);
  const [draft, setDraft] = useState<Draft>(() => keptDraft<Draft>(keepKey) ?? draftOf(initial));
  const [reloads, setReloads] = useState(0);
  const { review, error: reviewError } = useScriptReview(org, project, draft);
  const patch = (p: Partial<Draft>) => setDraft((d) => ({ ...d, ...p }));
  const dirty = stable(bodyOf(draft)) !== stable(bodyOf(draftOf(saved)));
  // Unsaved changes outlive a session that ends mid-edit; saving forgets them.
  useEffect(() => keepDraft(keepKey, dirty && saved.version === initial.version ? draft : null), [keepKey, dirty, draft, saved.version, initial.version]);
  // Closing the tab or leaving the workspace with unsaved changes asks first: the kept draft lives only in this tab.
  useEffect(() => {
    if (!dirty) return;
    const ask = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      e.returnValue = ''; // what browsers before 2023 ask for
    };
    addEventListener('beforeunload', ask);
    return () => removeEventListener('beforeunload', ask);
  }, [dirty]);

  const afterSave = (study: Study) => {
    setSaved(study);
    client.setQueryData(['study', org, project, study.ref], study);
    void client.invalidateQueries({ queryKey: studiesKey(org, project) });
    void client.invalidateQueries({ queryKey: ['widget-setup', org, project] });
    setReloads((n) => n + 1);
  };
  const save = useMutation({
    mutationFn: async () => data(await api.PATCH('/api/orgs/{orgHandle}/projects/{projectHandle}/studies/{studyId}', { params: { path }, body: { expected_version: saved.version, ...bodyOf(draft) } })).study,
    onSuccess: (study) => {
      status.reset();
      afterSave(study);
    },
  });
  const status = useMutation({
    mutationFn: async (to: 'draft' | 'active' | 'paused' | 'closed') =>
      data(await api.PATCH('/api/orgs/{orgHandle}/projects/{projectHandle}/studies/{studyId}', { params: { path }, body: { expected_version: saved.version, status: to } })).study,
    onSuccess: afterSave,
  });

  const firstInclude = draft.rules.find((r) => r.effect === 'include')?.pathname;
  return (
    <>
      <ProjectNav org={org} project={project} />
      <p className="small">
        <Link href={`/p/${org}/${project}/studies`}>All studies</Link>
      </p>
      <div className="row spread">
        <h1>{saved.title}</h1>
        <div className="row" role="group" aria-label="Status">
          <span className={`badge status-${saved.status}`}>{saved.status}</span>
          {MOVES[saved.status]?.map((m) => (
            <button key={m.to} type="button" className="secondary" disabled={dirty || status.isPending} aria-describedby={dirty ? 'save-first' : undefined} onClick={() => status.mutate(m.to)}>
              {m.label}
            </button>
          ))}
        </div>
      </div>
      {restored && dirty ? (
        <p className="small" role="status">
          Your unsaved changes from before were kept. Save them, or change them back.
        </p>
      ) : null}
      {dirty ? (
        <p id="save-first" className="muted small">
          You have unsaved changes: save them before changing the status.
        </p>
      ) : null}
      <Problem error={status.error} />
      <div className="study-layout">
        <form
          className="stack study-form"
          aria-label="Study"
          onSubmit={(e) => {
            e.preventDefault();
            save.mutate();
          }}
        >
          <section className="panel stack" aria-labelledby="basics">
            <h2 id="basics">Title and goals</h2>
            <label className="stack field">
              <span>Title</span>
              <input id="study-title" value={draft.title} maxLength={200} required onChange={(e) => patch({ title: e.target.value })} />
            </label>
            <Goals goals={draft.goals} onChange={(goals) => patch({ goals })} />
            <Issues id={undefined} issues={review?.general ?? []} />
            <Problem error={reviewError} />
          </section>
          <Segments segments={draft.segments} onChange={(segments) => patch({ segments })} review={review} />
          <InvitationEditor invitation={draft.invitation} invalid={saved.invitation_state === 'invalid'} onChange={(invitation) => patch({ invitation })} />
          <VisibilityEditor draft={draft} onChange={patch} />
          <div className="panel stack savebar">
            <Problem error={save.error} />
            <div className="row">
              <button type="submit" disabled={save.isPending}>
                {save.isPending ? 'Saving…' : 'Save'}
              </button>
              <span className="muted small" role="status">
                {save.isPending ? '' : dirty ? 'Unsaved changes' : save.isSuccess ? `Saved (version ${saved.version})` : ''}
              </span>
            </div>
          </div>
        </form>
        <aside className="study-aside">
          <PagePreview org={org} project={project} initialPath={firstInclude ?? '/'} reloads={reloads} />
        </aside>
      </div>
    </>
  );
}

function Goals({ goals, onChange }: { goals: Goal[]; onChange: (g: Goal[]) => void }) {
  const set = (i: number, p: Partial<Goal>) => onChange(goals.map((g, j) => (j === i ? { ...g, ...p } : g)));
  return (
    <fieldset className="stack">
      <legend>Goals</legend>
      <p className="muted small">Name a goal's id in a segment's context to show that the segment serves it.</p>
      <ol className="stack goals">
        {goals.map((g, i) => (
          <li key={i} className="row goal">
            <input className="goal-id" aria-label={`Goal ${i + 1} id`} value={g.id} onChange={(e) => set(i, { id: e.target.value })} />
            <input className="grow" aria-label={`Goal ${i + 1}`} value={g.description} onChange={(e) => set(i, { description: e.target.value })} />
            <button type="button" className="secondary" aria-label={`Remove goal ${i + 1}`} onClick={() => onChange(goals.filter((_, j) => j !== i))}>
              Remove
            </button>
          </li>
        ))}
      </ol>
      <button type="button" className="secondary add" onClick={() => onChange([...goals, { id: `g-${goals.length + 1}`, description: '' }])}>
        Add a goal
      </button>
    </fieldset>
  );
}
