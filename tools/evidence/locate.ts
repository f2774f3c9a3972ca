import type { Turn } from './types.ts';
import { sentences } from '../../core/sentences.ts';

export interface Located {
  /** The exact transcript text to store as the quote. */
  quote: string;
  segment_id: string;
  timestamp_ms: number | null;
  window_start_ms: number | null;
  window_end_ms: number | null;
  uncertain: boolean;
  note: string | null;
}

const squash = (s: string) => s.toLowerCase().replace(/[\u2018\u2019]/g, "'").replace(/[\u201c\u201d]/g, '"').replace(/\s+/g, ' ').trim();

/** When in the turn the words at `offset` were said, spread evenly over its time. */
export function timeAt(turn: Turn, offset: number): number | null {
  if (turn.start_ms == null) return null;
  if (turn.end_ms == null || turn.text.length === 0) return turn.start_ms;
  return Math.round(turn.start_ms + ((turn.end_ms - turn.start_ms) * offset) / turn.text.length);
}

function spanIn(turn: Turn, quote: string): { start: number; end: number } | null {
  const exact = turn.text.indexOf(quote);
  if (exact >= 0) return { start: exact, end: exact + quote.length };
  // Same words, different case, spacing or curly quotes: map back onto the original text.
  const target = squash(quote);
  if (!target) return null;
  const lowered = squash(turn.text);
  const at = lowered.indexOf(target);
  if (at < 0) return null;
  // Walk the original text to find where the squashed match starts and ends.
  let squashedPos = 0;
  let start = -1;
  let end = -1;
  let prevSpace = true;
  for (let i = 0; i < turn.text.length; i++) {
    const ch = turn.text[i];
    const isSpace = /\s/.test(ch);
    if (isSpace && prevSpace) continue;
    if (squashedPos === at && start < 0) start = i;
    squashedPos++;
    if (squashedPos === at + target.length) {
      end = i + 1;
      break;
    }
    prevSpace = isSpace;
  }
  return start >= 0 && end > start ? { start, end } : null;
}

const words = (s: string) => new Set(squash(s).replace(/[^a-z0-9' ]/g, ' ').replace(/'(?= |$)/g, '').split(' ').filter((w) => w.length > 2));

/**
 * Finds a proposed quote in the transcript. Exact (or whitespace/case-insensitive) matches
 * become the verbatim span. A close paraphrase is kept only as the best-matching sentence,
 * marked uncertain with a note. Anything else returns null and must not be stored as fact.
 */
export function locate(turns: Turn[], quote: string, preferSegment: string | null): Located | null {
  const ordered = preferSegment ? [...turns.filter((t) => t.segment_id === preferSegment), ...turns.filter((t) => t.segment_id !== preferSegment)] : turns;
  for (const turn of ordered) {
    const span = spanIn(turn, quote);
    if (span) {
      return {
        quote: turn.text.slice(span.start, span.end),
        segment_id: turn.segment_id,
        timestamp_ms: timeAt(turn, span.start),
        window_start_ms: turn.start_ms,
        window_end_ms: turn.end_ms,
        uncertain: false,
        note: null,
      };
    }
  }
  const wanted = words(quote);
  if (wanted.size < 3) return null;
  let best: { turn: Turn; sentence: string; offset: number; overlap: number } | null = null;
  for (const turn of turns) {
    for (const sentence of sentences(turn.text)) {
      const have = words(sentence.text);
      const overlap = [...wanted].filter((w) => have.has(w)).length / wanted.size;
      if (!best || overlap > best.overlap) best = { turn, sentence: sentence.text, offset: sentence.start, overlap };
    }
  }
  if (!best || best.overlap < 0.8) return null;
  return {
    quote: best.sentence,
    segment_id: best.turn.segment_id,
    timestamp_ms: timeAt(best.turn, best.offset),
    window_start_ms: best.turn.start_ms,
    window_end_ms: best.turn.end_ms,
    uncertain: true,
    note: `The proposed quote was not found verbatim; this is the closest transcript sentence (${Math.round(best.overlap * 100)}% of its words).`,
  };
}
