import { newKey, type Mode, type SegmentDraft } from './draft.ts';
import type { Branch, Issue, Review } from './review.ts';

const MODES: Array<[Mode, string]> = [
  ['speak', 'Speak (say a text)'],
  ['talk', 'Talk (a conversation)'],
  ['observe', 'Observe (show a task)'],
];

function freeId(segments: SegmentDraft[]): string {
  const taken = new Set(segments.map((s) => s.id));
  let n = segments.length + 1;
  while (taken.has(`segment-${n}`)) n++;
  return `segment-${n}`;
}

/** The script's segments: add, remove, reorder and edit, each with what the review says about it. */
export function Segments({ segments, onChange, review }: { segments: SegmentDraft[]; onChange: (s: SegmentDraft[]) => void; review: Review | null }) {
  const set = (i: number, patch: Partial<SegmentDraft>) => onChange(segments.map((s, j) => (j === i ? { ...s, ...patch } : s)));
  const move = (i: number, by: number) => {
    const next = [...segments];
    const [s] = next.splice(i, 1);
    next.splice(i + by, 0, s);
    onChange(next);
    // Keep the keyboard on the segment that moved, on the button that can still move it.
    const to = i + by;
    const dir = (by < 0 && to > 0) || to === next.length - 1 ? 'up' : 'down';
    requestAnimationFrame(() => document.getElementById(`seg-${s.key}-${to === 0 ? 'down' : dir}`)?.focus());
  };
  const remove = (i: number) => {
    onChange(segments.filter((_, j) => j !== i));
    requestAnimationFrame(() => document.getElementById('segments')?.focus());
  };
  const add = () => onChange([...segments, { key: newKey(), id: freeId(segments), mode: 'talk', title: '', speak_text: '', instruction: '', conductor_context: '' }]);
  return (
    <section aria-labelledby="segments" className="stack">
      <h2 id="segments" tabIndex={-1}>
        Segments
      </h2>
      <ol className="segments">
        {segments.map((s, i) => (
          <SegmentEditor
            key={s.key}
            segment={s}
            index={i}
            count={segments.length}
            said={review?.bySegment.get(s.key)}
            onSet={(patch) => set(i, patch)}
            onMove={(by) => move(i, by)}
            onRemove={() => remove(i)}
          />
        ))}
      </ol>
      <button type="button" className="secondary add" onClick={add}>
        Add a segment
      </button>
    </section>
  );
}

interface EditorProps {
  segment: SegmentDraft;
  index: number;
  count: number;
  said: { issues: Issue[]; questions: string[] | null; branches: Branch[] } | undefined;
  onSet: (patch: Partial<SegmentDraft>) => void;
  onMove: (by: number) => void;
  onRemove: () => void;
}

function SegmentEditor({ segment: s, index, count, said, onSet, onMove, onRemove }: EditorProps) {
  const n = index + 1;
  const name = s.title.trim() || `segment ${n}`;
  const fieldId = (f: string) => `seg-${s.key}-${f}`;
  const issuesFor = (f: string) => (said?.issues ?? []).filter((i) => i.field === f);
  const unplaced = (said?.issues ?? []).filter((i) => !['id', 'mode', 'title', 'speak_text', 'instruction', 'conductor_context'].includes(i.field));
  const text = (f: 'title' | 'speak_text' | 'instruction' | 'conductor_context', label: string, multiline: boolean) => {
    const issues = issuesFor(f);
    const described = issues.length ? fieldId(`${f}-issues`) : undefined;
    const props = { id: fieldId(f), value: s[f], 'aria-describedby': described, 'aria-invalid': issues.some((i) => i.severity === 'error') || undefined };
    return (
      <div className="stack field">
        <label htmlFor={fieldId(f)}>{label}</label>
        {multiline ? <textarea rows={3} {...props} onChange={(e) => onSet({ [f]: e.target.value })} /> : <input {...props} onChange={(e) => onSet({ [f]: e.target.value })} />}
        <Issues id={described} issues={issues} />
      </div>
    );
  };
  return (
    <li className="panel segment stack" data-segment={s.id} aria-label={`Segment ${n}: ${name}`}>
      <div className="row spread">
        <h3>
          {n}. {name}
        </h3>
        <div className="row">
          <button type="button" id={fieldId('up')} className="secondary" onClick={() => onMove(-1)} disabled={index === 0} aria-label={`Move ${name} up`}>
            ↑
          </button>
          <button type="button" id={fieldId('down')} className="secondary" onClick={() => onMove(1)} disabled={index === count - 1} aria-label={`Move ${name} down`}>
            ↓
          </button>
          <button type="button" className="secondary" onClick={onRemove} aria-label={`Remove ${name}`}>
            Remove
          </button>
        </div>
      </div>
      <div className="grid2">
        <div className="stack field">
          <label htmlFor={fieldId('mode')}>Mode</label>
          <select id={fieldId('mode')} value={s.mode} onChange={(e) => onSet({ mode: e.target.value as Mode })}>
            {MODES.map(([m, label]) => (
              <option key={m} value={m}>
                {label}
              </option>
            ))}
          </select>
          <Issues id={undefined} issues={issuesFor('mode')} />
        </div>
        <div className="stack field">
          <label htmlFor={fieldId('id')}>Segment id</label>
          <input id={fieldId('id')} value={s.id} onChange={(e) => onSet({ id: e.target.value })} />
          <Issues id={undefined} issues={issuesFor('id')} />
        </div>
      </div>
      {text('title', 'Title', false)}
      {s.mode === 'speak' ? text('speak_text', 'What the conductor says', true) : null}
      {s.mode !== 'speak' || s.instruction ? text('instruction', 'Instruction for the conductor', true) : null}
      {text('conductor_context', 'Context for the conductor (not said)', true)}
      <Issues id={undefined} issues={unplaced} />
      {s.mode !== 'speak' && said?.questions ? (
        <div className="questions" aria-label={`What the built-in conductor asks in ${name}`} role="group">
          <p className="small muted">The built-in conductor will ask:</p>
          <ul>
            {said.questions.map((q) => (
              <li key={q}>
                {q}
                {said.branches.some((b) => b.after === q) ? (
                  <ul>
                    {said.branches
                      .filter((b) => b.after === q)
                      .map((b) => (
                        <li key={b.question} className="small">
                          <span className="muted">{b.when === 'yes' ? 'If yes: ' : b.when === 'no' ? 'If no: ' : `If the answer ${b.when}: `}</span>
                          {b.question}
                        </li>
                      ))}
                  </ul>
                ) : null}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </li>
  );
}

/** Review issues next to the field they concern. */
export function Issues({ id, issues }: { id: string | undefined; issues: Issue[] }) {
  if (!issues.length) return null;
  return (
    <ul className="issues" id={id}>
      {issues.map((i) => (
        <li key={i.code + i.message} className={i.severity} data-code={i.code}>
          <strong>{i.severity === 'error' ? 'Error' : 'Warning'}:</strong> {i.message}
        </li>
      ))}
    </ul>
  );
}
