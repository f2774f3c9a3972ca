import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';

/** A modal that asks for the project's handle before a step that cannot be undone. */
export function ConfirmHandle(props: { open: boolean; title: string; handle: string; action: string; pending: boolean; onConfirm: () => void; onClose: () => void; children: ReactNode }) {
  const ref = useRef<HTMLDialogElement>(null);
  const [typed, setTyped] = useState('');
  const id = useId();
  useEffect(() => {
    const d = ref.current!;
    if (props.open && !d.open) d.showModal();
    if (!props.open && d.open) d.close();
    if (!props.open) setTyped('');
  }, [props.open]);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (typed === props.handle) props.onConfirm();
  };
  return (
    <dialog ref={ref} aria-labelledby={`${id}-t`} onClose={props.onClose} className="confirm">
      <form onSubmit={submit} className="stack">
        <h2 id={`${id}-t`}>{props.title}</h2>
        {props.children}
        <label className="stack">
          <span>
            Type <strong>{props.handle}</strong> to confirm
          </span>
          <input value={typed} onChange={(e) => setTyped(e.target.value)} autoComplete="off" spellCheck={false} />
        </label>
        <div className="row">
          <button type="submit" className="danger" disabled={typed !== props.handle || props.pending}>
            {props.action}
          </button>
          <button type="button" className="secondary" onClick={props.onClose}>
            Cancel
          </button>
        </div>
      </form>
    </dialog>
  );
}
