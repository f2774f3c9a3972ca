import { Link } from 'wouter';
import { Problem } from '../../shell.tsx';
import { clock, surfaceLabel, typeLabel, typeMeaning } from './labels.ts';
import { Status } from './list.tsx';
import { useCard, type Signal } from './queries.ts';

type Props = { org: string; project: string; card: Signal | undefined; onAction: (key: 'r' | 'd' | 'n' | 'e' | 'f' | 'restore') => void; busy: boolean };

/** The selected card read in full (GET the signal): what was said, what it claims, and where it came from. */
export function CardDetail({ org, project, card, onAction, busy }: Props) {
  const full = useCard(org, project, card?.id);
  if (!card) return <p className="muted">Select a card to read it in full.</p>;
  // The list's copy is patched by this page's actions at once; the full read adds provenance and the case file.
  const s = { ...card, ...full.data, review_status: card.review_status, dismissed_at: card.dismissed_at, dismissed_reason: card.dismissed_reason, annotation_text: card.annotation_text };
  const facts = s.case_file?.evidence_card.evidence.observed_facts ?? [];
  const prov = s.provenance;
  const at = s.timestamp_ms ?? prov?.timestamp_ms;
  return (
    <article className="stack" aria-labelledby="card-headline">
      <div className="review-meta small">
        <span title={typeMeaning(s.signal_type)}>{typeLabel(s.signal_type)}</span>
        <span className="muted">{surfaceLabel(s.target_surface)}</span>
        <Status card={s} />
      </div>
      <h2 id="card-headline">{s.headline ?? typeLabel(s.signal_type)}</h2>
      {typeMeaning(s.signal_type) ? <p className="muted small">{typeLabel(s.signal_type)}: {typeMeaning(s.signal_type)}</p> : null}
      <blockquote className="review-bigquote">“{s.quote}”</blockquote>
      {s.claim ? (
        <p>
          <strong>Claim:</strong> {s.claim}
        </p>
      ) : null}
      <div className="row" role="group" aria-label="Review this card">
        <button type="button" disabled={busy || s.review_status === 'reviewed' || !!s.dismissed_at} aria-keyshortcuts="r" onClick={() => onAction('r')}>
          Mark reviewed <kbd aria-hidden="true">r</kbd>
        </button>
        <button type="button" className="secondary" disabled={!!s.dismissed_at} aria-keyshortcuts="d" onClick={() => onAction('d')}>
          Dismiss <kbd aria-hidden="true">d</kbd>
        </button>
        <button type="button" className="secondary" aria-keyshortcuts="n" onClick={() => onAction('n')}>
          Annotate <kbd aria-hidden="true">n</kbd>
        </button>
        <button type="button" className="secondary" aria-keyshortcuts="e" onClick={() => onAction('e')}>
          Correct <kbd aria-hidden="true">e</kbd>
        </button>
        <button type="button" className="secondary" aria-keyshortcuts="f" onClick={() => onAction('f')}>
          Add to finding <kbd aria-hidden="true">f</kbd>
        </button>
      </div>
      {s.dismissed_at ? (
        <div className="row small">
          <span>Dismissed: {s.dismissed_reason}</span>
          <button type="button" className="link" disabled={busy} onClick={() => onAction('restore')}>
            Restore
          </button>
        </div>
      ) : null}
      {s.annotation_text ? (
        <p className="small">
          <strong>Note:</strong> {s.annotation_text}
        </p>
      ) : null}
      <Problem error={full.error} />
      <section aria-labelledby="provenance" className="stack">
        <h3 id="provenance">Provenance</h3>
        <dl className="review-facts">
          <dt>Interview</dt>
          <dd>
            {prov?.interview?.participant_name ?? 'Anonymous'}
            {prov?.interview?.started_at ? <span className="muted"> · {new Date(prov.interview.started_at).toLocaleString()}</span> : null}
          </dd>
          {prov?.study ? (
            <>
              <dt>Study</dt>
              <dd>{prov.study.title}</dd>
            </>
          ) : null}
          {prov?.page ? (
            <>
              <dt>Page</dt>
              <dd>{prov.page.title ?? prov.page.url}</dd>
            </>
          ) : null}
          <dt>Moment</dt>
          <dd>
            <Link href={`/p/${org}/${project}/interviews/${s.session_id}${at != null ? `?t=${at}` : ''}`}>
              {at != null ? `Open the interview at ${clock(at)}` : 'Open the interview'}
            </Link>
          </dd>
          {prov?.source ?? s.source ? (
            <>
              <dt>Source</dt>
              <dd>{prov?.source ?? s.source}</dd>
            </>
          ) : null}
        </dl>
      </section>
      <section aria-labelledby="case-file" className="stack">
        <h3 id="case-file">Case file</h3>
        {full.isPending ? <p className="muted" role="status">Loading the case file…</p> : null}
        <dl className="review-facts">
          {s.evidence_grade ? (
            <>
              <dt>Evidence grade</dt>
              <dd title={typeMeaning(s.evidence_grade)}>{typeLabel(s.evidence_grade)}</dd>
            </>
          ) : null}
          <dt>Confidence</dt>
          <dd>{Math.round(s.confidence * 100)}%</dd>
          {s.user_goal ? (
            <>
              <dt>Goal</dt>
              <dd>{s.user_goal}</dd>
            </>
          ) : null}
          {s.outcome ? (
            <>
              <dt>Outcome</dt>
              <dd>{s.outcome}</dd>
            </>
          ) : null}
          {s.reconstruction ? (
            <>
              <dt>Reconstruction</dt>
              <dd>{s.reconstruction}</dd>
            </>
          ) : null}
          {s.transcript_uncertain ? (
            <>
              <dt>Transcript</dt>
              <dd>Uncertain{s.transcript_uncertainty_note ? `: ${s.transcript_uncertainty_note}` : ''}</dd>
            </>
          ) : null}
        </dl>
        {facts.length ? (
          <>
            <h4>Observed facts</h4>
            <ul>
              {facts.map((f, i) => (
                <li key={i}>{f}</li>
              ))}
            </ul>
          </>
        ) : null}
        {s.linked_task ? <p className="small">Linked to the work item “{s.linked_task.title}” ({typeLabel(s.linked_task.status)}).</p> : null}
      </section>
    </article>
  );
}
