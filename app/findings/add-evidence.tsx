import { useState } from 'react';
import { Problem } from '../shell.tsx';
import { EvidencePicker } from './evidence-picker.tsx';
import { useUpdateFinding } from './model.ts';

/** Picks more evidence for a finding (PATCH add_evidence); the finding's counts refresh after. */
export function AddEvidence({ org, project, findingRef, attached }: { org: string; project: string; findingRef: string; attached: Set<string> }) {
  const [open, setOpen] = useState(false);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const update = useUpdateFinding(org, project);
  const fresh = [...selected].filter((id) => !attached.has(id));
  if (!open) {
    return (
      <button type="button" className="secondary" onClick={() => setOpen(true)}>
        Add evidence
      </button>
    );
  }
  const close = () => {
    setOpen(false);
    setSelected(new Set());
    update.reset();
  };
  return (
    <div className="panel stack">
      <EvidencePicker org={org} project={project} selected={selected} onChange={setSelected} />
      <Problem error={update.error} />
      <div className="row">
        <button type="button" disabled={!fresh.length || update.isPending} onClick={() => update.mutate({ ref: findingRef, body: { add_evidence: fresh } }, { onSuccess: close })}>
          {fresh.length ? `Add ${fresh.length} to the finding` : 'Add to the finding'}
        </button>
        <button type="button" className="secondary" onClick={close}>
          Cancel
        </button>
      </div>
    </div>
  );
}
