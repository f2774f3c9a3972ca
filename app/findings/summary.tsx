import type { Finding } from './model.ts';

const n = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** A finding's priority label (unless a control beside it shows it) and how much evidence stands behind it. */
export function FindingSummary({ finding, badge = true }: { finding: Finding; badge?: boolean }) {
  return (
    <p className="finding-meta small">
      {badge ? (
        <>
          <span className={`badge priority-${finding.priority_label}`}>{finding.priority_label}</span>{' '}
        </>
      ) : null}
      <span data-count="evidence">{n(finding.evidence_count, 'evidence card', 'evidence cards')}</span>
      {' · '}
      <span data-count="interviews">{n(finding.interview_count, 'interview', 'interviews')}</span>
    </p>
  );
}
