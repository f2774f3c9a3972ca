import { HEADLINE_MAX } from '../tools/evidence/headline.ts';
import { LocalExtractor } from '../tools/evidence/local-extractor.ts';
import { SIGNAL_TYPES, type SignalType } from '../tools/evidence/types.ts';
import { interviewerDirected, questionPlan } from '../tools/conductor/questions.ts';
import { readLabels, score, type HeadlineLabel, type QuestionLabel, type Score } from './wording.ts';

/** What a headline must never be: the hard rules of issue 14 and docs/decisions.md. */
export function headlineFaults(h: string): string[] {
  const faults: string[] = [];
  if (h.length > HEADLINE_MAX) faults.push('longer than 70 characters');
  if (/\b(?:I|me|my|mine|myself)\b/.test(h) || /^(?:we|our|us)\b/i.test(h)) faults.push('first person');
  if (/^(?:um|uh|so|well|like|and|but|or|because|which|yeah|oh|okay|ok)\b/i.test(h)) faults.push('opens on a filler or conjunction');
  if (/\b(?:a|an|the|to|of|and|or|but|their|your)$/i.test(h)) faults.push('ends on a dangling word');
  if (/…|\.\.\./.test(h) || /[,;:]$/.test(h)) faults.push('cut');
  if ((h.match(/"/g) ?? []).length % 2) faults.push('unbalanced quotation mark');
  if (/^(?:if|when|because|since|unless|although|though|once)\b/i.test(h) && !h.includes(',')) faults.push('only a condition or cause, not what happened');
  return faults;
}

/** What a participant question must never be. */
export function questionFaults(q: string): string[] {
  const faults: string[] = [];
  if (!/\?$/.test(q)) faults.push('not a question');
  const directed = interviewerDirected(q);
  if (directed) faults.push(directed);
  // Checked here independently of the product's own filter (interviewerDirected).
  if (/\b(?:don't|do not|never)\s+(?:help|interrupt|lead|mention|explain|correct|show|prompt|point)\b|\bserves\s+g-|\bnote (?:tone|whether|if)\b/i.test(q)) faults.push('coaching');
  if (/\b(?:the participant|the user|moderator|interviewer)\b/i.test(q)) faults.push('third person');
  if (/\b(?:esp|e\.g|i\.e|w\/|mgmt|thru)\b|\s\/\s/i.test(q)) faults.push('shorthand');
  if (/\(\s|\s\)|\s[%,.?!]|\w\s-\s\w/.test(q)) faults.push('spacing');
  return faults;
}

const isType = (t: string): t is SignalType => (SIGNAL_TYPES as readonly string[]).includes(t);

/** The headline extraction would write for each labelled quote, scored. */
export function scoreHeadlines(file: string, extractor = new LocalExtractor()): Score {
  const labels = readLabels<HeadlineLabel>(file);
  return score(
    labels.map((l) => {
      if (!isType(l.type)) throw new Error(`${file}: unknown type ${l.type}`);
      const text = extractor.headlineFor(l.quote, l.type);
      return { source: l.quote, must: l.must, gold: l.gold, text, broken: headlineFaults(text) };
    }),
  );
}

/** The questions the built-in conductor asks for each labelled segment, scored together per segment. */
export function scoreQuestions(file: string): Score {
  const labels = readLabels<QuestionLabel>(file);
  return score(
    labels.map((l) => {
      const { questions } = questionPlan({ mode: l.mode, title: l.title, instruction: l.instruction });
      return { source: l.instruction, must: l.must, gold: l.gold, text: questions.join(' '), broken: questions.flatMap(questionFaults) };
    }),
  );
}
