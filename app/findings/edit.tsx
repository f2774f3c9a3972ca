import { useState, type FormEvent } from 'react';
import { Problem } from '../shell.tsx';
import { useUpdateFinding, type Finding } from './model.ts';

/** A finding's title and description, read as written and changed in place. */
export function FindingText({ org, project, finding }: { org: string; project: string; finding: Finding }) {
  const [editing, setEditing] = useState(false);
  const [title, setTitle] = useState(finding.title);
  const [description, setDescription] = useState(finding.description ?? '');
  const update = useUpdateFinding(org, project);
  const closed = finding.research_state === 'closed';
  const start = () => {
    setTitle(finding.title);
    setDescription(finding.description ?? '');
    setEditing(true);
  };
  const save = (e: FormEvent) => {
    e.preventDefault();
    update.mutate({ ref: finding.finding_ref, body: { title: title.trim(), description: description.trim() || null } }, { onSuccess: () => setEditing(false) });
  };
  if (!editing)
    return (
      <>
        <div className="row spread">
          <h1>{finding.title}</h1>
          {closed ? null : (
            <button type="button" className="secondary" onClick={start}>
              Edit title and description
            </button>
          )}
        </div>
        {finding.description ? <p className="finding-description">{finding.description}</p> : null}
      </>
    );
  return (
    <form className="stack" onSubmit={save} aria-label="Edit the finding">
      <label className="stack">
        <span>Title</span>
        <input autoFocus required maxLength={300} value={title} onChange={(e) => setTitle(e.target.value)} />
      </label>
      <label className="stack">
        <span>Description</span>
        <textarea rows={4} maxLength={20000} value={description} onChange={(e) => setDescription(e.target.value)} placeholder="What the evidence shows, and what it means for the product" />
      </label>
      <Problem error={update.error} />
      <div className="row">
        <button type="submit" disabled={update.isPending}>
          {update.isPending ? 'Saving…' : 'Save'}
        </button>
        <button type="button" className="secondary" onClick={() => setEditing(false)}>
          Cancel
        </button>
      </div>
    </form>
  );
}
