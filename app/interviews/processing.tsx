export const STATE_LABEL: Record<string, string> = { pending: 'Queued', processing: 'Processing', processed: 'Processed', failed: 'Failed', not_started: 'Not started' };
const STEP_LABEL: Record<string, string> = { deriving_media: 'preparing the recording', reading_screen: 'reading the screen', transcribing: 'transcribing', extracting: 'extracting evidence' };

/** An interview's processing state, with the step it is on while it runs. */
export function ProcessingBadge({ status, step }: { status: string; step?: string | null }) {
  const moving = status === 'pending' || status === 'processing';
  return (
    <span className={`badge ${status}`} data-status={status}>
      {STATE_LABEL[status] ?? status}
      {moving && step ? ` · ${STEP_LABEL[step] ?? step}` : ''}
    </span>
  );
}
