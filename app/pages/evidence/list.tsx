import { useEffect, useRef } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { surfaceLabel, typeLabel } from './labels.ts';
import type { Signal } from './queries.ts';

export const ROW = 118;

type Props = {
  cards: Signal[];
  total: number;
  selected: number;
  /** Set when the keyboard moved the selection: the new card takes focus once it is rendered. */
  focusRequest: { current: boolean };
  names: Map<string, string>;
  onSelect: (index: number) => void;
  onNeedMore: () => void;
};

/** The queue as a listbox whose rows exist only while near the viewport. */
export function QueueList({ cards, total, selected, focusRequest, names, onSelect, onNeedMore }: Props) {
  const scroller = useRef<HTMLDivElement>(null);
  const v = useVirtualizer({ count: total, getScrollElement: () => scroller.current, estimateSize: () => ROW, overscan: 8 });
  const items = v.getVirtualItems();

  useEffect(() => {
    if (selected >= 0 && selected < total) v.scrollToIndex(selected, { align: 'auto' });
  }, [selected, total, v]);

  // Ask for the next page while the rows in view (or just past them) are not loaded yet.
  const lastInView = items.length ? items[items.length - 1].index : -1;
  useEffect(() => {
    if (lastInView >= cards.length - 20) onNeedMore();
  }, [lastInView, cards.length, onNeedMore]);

  useEffect(() => {
    if (!focusRequest.current) return;
    const el = scroller.current?.querySelector<HTMLElement>(`[data-index="${selected}"]`);
    if (el) {
      el.focus({ preventScroll: true });
      focusRequest.current = false;
    }
  });

  return (
    <div ref={scroller} className="review-scroller">
      <div role="listbox" aria-label="Evidence cards" className="review-listbox" style={{ height: v.getTotalSize() }}>
        {items.map((item) => {
          const card = cards[item.index];
          const place = { transform: `translateY(${item.start}px)`, height: item.size };
          if (!card)
            return (
              <div key={item.key} className="review-row placeholder" aria-hidden="true" style={place}>
                Loading…
              </div>
            );
          const isSelected = item.index === selected;
          return (
            <div
              key={card.id}
              id={`card-${card.id}`}
              data-index={item.index}
              data-id={card.id}
              role="option"
              aria-selected={isSelected}
              aria-posinset={item.index + 1}
              aria-setsize={total}
              tabIndex={isSelected ? 0 : -1}
              className={`review-row card${card.dismissed_at ? ' dismissed' : ''}`}
              style={place}
              onClick={() => onSelect(item.index)}
              // Focus given back by a closing dialog while the queue moves on (after a dismissal) does not select the card left.
              onFocus={() => !focusRequest.current && item.index !== selected && onSelect(item.index)}
            >
              <span className="review-meta small">
                <span>{typeLabel(card.signal_type)}</span>
                <span className="muted">{surfaceLabel(card.target_surface)}</span>
                {names.get(card.session_id) ? <span className="muted">{names.get(card.session_id)}</span> : null}
                <Status card={card} />
              </span>
              <strong className="review-headline">{card.headline ?? typeLabel(card.signal_type)}</strong>
              <span className="review-quote muted small">“{card.quote}”</span>
            </div>
          );
        })}
      </div>
    </div>
  );
}

export function Status({ card }: { card: Signal }) {
  return (
    <>
      {card.dismissed_at ? <span className="badge failed">Dismissed</span> : null}
      {card.review_status === 'reviewed' ? <span className="badge processed">Reviewed</span> : null}
      {card.annotation_text ? <span className="badge">Annotated</span> : null}
    </>
  );
}
