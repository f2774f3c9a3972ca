import { useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, data } from '../api.ts';
import { Problem } from '../shell.tsx';
import { EvidencePicker } from './evidence-picker.tsx';
import { findingsKey, path } from './model.ts';

/** Writes a draft finding: from the selected evidence when any is ticked, else directly. */
export function NewFinding({ org, project, onDone }: { org: string; project: string; onDone: () => void }) {
  const client = useQueryClient();
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const create = useMutation({
    mutationFn: async () => {
      const body = { title, description: description.trim() || null, evidence_refs: [...selected] };
      const params = { path: path(org, project) };
      const r = selected.size
        ? await api.POST('/api/orgs/{orgHandle}/projects/{projectHandle}/findings/from-evidence', { params, body })
        : await api.POST('/api/orgs/{orgHandle}/projects/{projectHandle}/findings', { params, body });
      return data(r).finding;
    },
    onSuccess: () => {
      client.invalidateQueries({ queryKey: findingsKey(org, project) });
      onDone();
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate();
  };
  return (
    <form className="panel stack" onSubmit={submit} aria-labelledby="new-finding">
      <h2 id="new-finding">New finding</h2>
      <label className="stack">
        <span>Title</span>
        <input value={title} onChange={(e) => setTitle(e.target.value)} required maxLength={300} />
      </label>
      <label className="stack">
        <span>Description (optional)</span>
        <textarea value={description} onChange={(e) => setDescription(e.target.value)} rows={3} />
      </label>
      <EvidencePicker org={org} project={project} selected={selected} onChange={setSelected} />
      <Problem error={create.error} />
      <div className="row">
        <button type="submit" disabled={create.isPending || !title.trim()}>
          {selected.size ? `Create finding from ${selected.size} evidence` : 'Create finding'}
        </button>
        <button type="button" className="secondary" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}
