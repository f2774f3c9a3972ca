import { parse } from '../../core/nlp.ts';
import type { Segment } from './script.ts';
import { interviewerDirected } from './questions.ts';

const wordsOf = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}']+/gu) ?? [];

/** The longest run of consecutive words `a` and `b` share. */
function longestRun(a: string[], b: string[]): number {
  let best = 0;
  const prev = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    let diag = 0;
    for (let j = 1; j <= b.length; j++) {
      const keep = prev[j];
      prev[j] = a[i - 1] === b[j - 1] ? diag + 1 : 0;
      if (prev[j] > best) best = prev[j];
      diag = keep;
    }
  }
  return best;
}

/** Markers of text written for the interviewer; "they" is left out, a model may ask about colleagues. */
const MARKERS = /\b(?:the|a|each)\s+(?:participant|respondent|interviewee)s?\b|\bparticipant'?s\b|\bserves\s+g-?\w*|\bg-[a-z][\w-]*|\b(?:my|your|these|the)\s+instructions?\b|(?:^|[.!?]\s+)(?:do not|don't)\s+(?:help|lead|suggest|mention|interrupt)\b/i;

/**
 * Why a model's reply is (part of) the interviewer's instruction or context rather than a
 * question of its own, or null. A sentence of guidance counts as repeated when the reply
 * shares most of it word for word (at least 8 words, or 60% of a longer sentence); the
 * instruction's own questions may be asked as written.
 */
export function echoesInstructions(reply: string, segment: Pick<Segment, 'instruction' | 'conductor_context'>): string | null {
  if (MARKERS.test(reply)) return 'written for the interviewer';
  const said = wordsOf(reply);
  for (const source of [segment.instruction, segment.conductor_context]) {
    if (!source) continue;
    for (const s of parse(source.slice(0, 4000))) {
      if (s.text.trim().endsWith('?') && source === segment.instruction) continue;
      const words = wordsOf(s.text);
      if (words.length < 3) continue;
      const run = longestRun(said, words);
      if (run === words.length || run >= Math.max(8, Math.ceil(words.length * 0.6))) return 'repeats the instruction';
    }
  }
  const directed = interviewerDirected(reply);
  return directed && directed !== 'speaks of the participant as "they"' && directed !== 'is an instruction' ? directed : null;
}
