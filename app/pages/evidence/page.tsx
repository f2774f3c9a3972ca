import { useCallback, useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'wouter';
import { Problem } from '../../shell.tsx';
import { ProjectNav } from '../../project-nav.tsx';
import { AnnotateDialog, DismissDialog, EditDialog, FindingDialog, HelpDialog } from './dialogs.tsx';
import { CardDetail } from './detail.tsx';
import { Filters } from './filters.tsx';
import { QueueList } from './list.tsx';
import { useCardAction, useInterviews, useQueue, type Filters as F } from './queries.ts';

type Open = null | 'd' | 'n' | 'e' | 'f' | '?';

/** Keys typed into a field are the field's, not the queue's. */
const typing = (t: EventTarget | null) => t instanceof HTMLElement && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName));

/** `/p/:org/:project/evidence`: the review queue, driven by the keyboard. */
export function EvidenceReview({ org, project }: { org: string; project: string }) {
  const [params] = useSearchParams();
  const filters: F = {
    type: params.get('type') ?? undefined,
    surface: params.get('surface') ?? undefined,
    interview: params.get('interview') ?? undefined,
    dismissed: params.get('dismissed') === '1',
    q: params.get('q') ?? undefined,
  };
  const queue = useQueue(org, project, filters);
  const interviews = useInterviews(org, project);
  const names = new Map((interviews.data ?? []).map((s) => [s.id, s.participant_name ?? 'Anonymous']));
  const cards = queue.data?.pages.flatMap((p) => p.signals) ?? [];
  const total = queue.data?.pages[0]?.total ?? 0;
  // A card dismissed here stays in place, struck through, so it can be restored; it is no longer counted.
  const dismissedHere = filters.dismissed ? 0 : cards.filter((c) => c.dismissed_at).length;
  const left = total - dismissedHere;
  const [selected, setSelected] = useState(0);
  const [open, setOpen] = useState<Open>(null);
  // What the last action did, for screen readers.
  const [said, setSaid] = useState('');
  const focusRequest = useRef(false);
  // Out of the search (Enter, Escape): the selected card takes the focus once the list has it, however long the search takes.
  const [, rerender] = useState(0);
  const backToCards = useCallback(() => {
    focusRequest.current = true;
    rerender((n) => n + 1);
  }, []);
  const act = useCardAction(org, project);
  const card = cards[selected];
  const filterKey = JSON.stringify(filters);

  useEffect(() => setSelected(0), [filterKey]);

  const { hasNextPage, isFetchingNextPage, fetchNextPage } = queue;
  const needMore = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  /** On to the next card, as a queue is worked through (after r, and after a dismissal). */
  const onward = useCallback(() => {
    if (selected < total - 1) {
      focusRequest.current = true;
      setSelected(selected + 1);
    }
  }, [selected, total]);

  const run = useCallback(
    (key: string) => {
      if (key === '?') return setOpen('?');
      if (!card) return;
      if (key === 'r') {
        // Already done: said, and on to the next card all the same, so r works through a queue without stalling.
        if (card.dismissed_at || card.review_status === 'reviewed') {
          setSaid(`Card ${selected + 1} was already ${card.dismissed_at ? 'dismissed' : 'reviewed'}`);
          return onward();
        }
        // Reviewed, and on to the next card, as a queue is worked through.
        act.mutate({ id: card.id, kind: 'review' }, {
          onSuccess: () => {
            setSaid(`Card ${selected + 1} marked reviewed`);
            onward();
          },
        });
      } else if (key === 'restore') act.mutate({ id: card.id, kind: 'restore' }, { onSuccess: () => setSaid(`Card ${selected + 1} restored`) });
      else if (key === 'd' || key === 'n' || key === 'e' || key === 'f') setOpen(key);
    },
    [card, act, selected, onward],
  );

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (open || e.ctrlKey || e.metaKey || e.altKey || typing(e.target)) return;
      const last = Math.max(total - 1, 0);
      const move: Record<string, (i: number) => number> = {
        j: (i) => Math.min(i + 1, last),
        ArrowDown: (i) => Math.min(i + 1, last),
        k: (i) => Math.max(i - 1, 0),
        ArrowUp: (i) => Math.max(i - 1, 0),
        Home: () => 0,
        End: () => last,
      };
      if (move[e.key]) {
        e.preventDefault();
        focusRequest.current = true;
        setSelected(move[e.key]);
      } else if (e.key === '/') {
        e.preventDefault();
        document.getElementById('review-search')?.focus();
      } else if ('rdnef?'.includes(e.key) && e.key.length === 1) {
        e.preventDefault();
        run(e.key);
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open, total, run]);

  const close = () => setOpen(null);
  return (
    <>
      <ProjectNav org={org} project={project} />
      <div className="row spread">
        <h1>Evidence</h1>
        <button type="button" className="secondary" aria-keyshortcuts="?" onClick={() => setOpen('?')}>
          Keyboard shortcuts <kbd aria-hidden="true">?</kbd>
        </button>
      </div>
      <Filters filters={filters} interviews={interviews.data ?? []} onLeave={backToCards} />
      <div className="row muted small">
        <p className="review-position" role="status">
          {queue.isPending ? 'Loading…' : `${left.toLocaleString('en-US')} ${left === 1 ? 'card' : 'cards'}${dismissedHere ? ` (${dismissedHere} just dismissed)` : ''}`}
        </p>
        {total ? <p className="review-position">· card {selected + 1} selected</p> : null}
        <p className="review-position" role="status">
          {said}
        </p>
      </div>
      <Problem error={queue.error ?? act.error} />
      <div className="review">
        {total ? (
          <QueueList
            cards={cards}
            total={total}
            selected={selected}
            focusRequest={focusRequest}
            names={names}
            onSelect={setSelected}
            onNeedMore={needMore}
          />
        ) : (
          <p className="muted review-empty">{queue.isPending ? '' : 'No evidence matches.'}</p>
        )}
        <section className="review-detail panel" aria-label="Selected card">
          <CardDetail org={org} project={project} card={card} busy={act.isPending} onAction={run} />
        </section>
      </div>
      {open === '?' ? <HelpDialog onClose={close} /> : null}
      {open === 'd' && card ? <DismissDialog org={org} project={project} card={card} onClose={close} onSaved={(said) => (setSaid(said), onward())} /> : null}
      {open === 'n' && card ? <AnnotateDialog org={org} project={project} card={card} onClose={close} onSaved={setSaid} /> : null}
      {open === 'e' && card ? <EditDialog org={org} project={project} card={card} onClose={close} onSaved={setSaid} /> : null}
      {open === 'f' && card ? <FindingDialog org={org} project={project} card={card} onClose={close} onSaved={setSaid} /> : null}
    </>
  );
}
