import { describe, expect, it } from 'vitest';
import { HEADLINE_SETS, QUESTION_SETS, readLabels, scoreLine, type HeadlineLabel, type QuestionLabel, type Score } from '../training/wording.ts';
import { headlineFaults, questionFaults, scoreHeadlines, scoreQuestions } from '../training/wording-eval.ts';
import { SIGNAL_TYPES } from '../tools/evidence/types.ts';

/**
 * What the product writes for people, scored against labels by writers who never saw the code
 * (docs/wording-quality.md). The held-out sets are never tuned on; the floors sit a few points
 * under the figures measured when each set was first scored after a change.
 */
const floors = {
  headlines: { recall: 0.5, precision: 0.66, form: 0.98 },
  questions: { recall: 0.88, precision: 0.84, form: 0.97 },
};

const report = (name: string, s: Score) => process.stdout.write(`${scoreLine(name, s)}\n`);

describe('labels for headlines and questions', () => {
  it.each(Object.entries(HEADLINE_SETS))('headlines/%s: must phrases come from the quote, gold headlines follow the rules', (_name, file) => {
    const labels = readLabels<HeadlineLabel>(file);
    expect(labels.length).toBeGreaterThanOrEqual(100);
    for (const l of labels) {
      expect(SIGNAL_TYPES as readonly string[]).toContain(l.type);
      for (const m of l.must) expect(l.quote.toLowerCase(), m).toContain(m.toLowerCase());
      expect(headlineFaults(l.gold), l.gold).toEqual([]);
    }
  });

  it.each(Object.entries(QUESTION_SETS))('questions/%s: must phrases come from the instruction, gold questions follow the rules', (_name, file) => {
    const labels = readLabels<QuestionLabel>(file);
    expect(labels.length).toBeGreaterThanOrEqual(60);
    for (const l of labels) {
      for (const m of l.must) expect(l.instruction.toLowerCase(), m).toContain(m.toLowerCase());
      expect(l.gold).toMatch(/\?$/);
    }
  });

  it('finds what a bad text misses: the scorer can fail', () => {
    expect(headlineFaults('So I was, like, the confirm button and')).toEqual(['first person', 'opens on a filler or conjunction', 'ends on a dangling word']);
    expect(headlineFaults('If the app keeps double-booking')).toEqual(['only a condition or cause, not what happened']);
    expect(headlineFaults('Would move elsewhere if the app keeps double-booking')).toEqual([]);
    expect(questionFaults("Could you tell the story, don't interrupt")).toEqual(['not a question', 'coaching']);
  });
});

describe('wording quality on labels never tuned on', () => {
  const kinds = [
    ['headlines', 'headlines of evidence cards carry what the moment is about', scoreHeadlines, HEADLINE_SETS],
    ['questions', 'questions the built-in conductor asks cover what the guide asks for, in words fit for the participant', scoreQuestions, QUESTION_SETS],
  ] as const;
  it.each(kinds)('%s: %s', (kind, _what, scoreOf, sets) => {
    const tuning = scoreOf(sets.tuning);
    const heldout = scoreOf(sets.heldout);
    report(`${kind}, tuning set`, tuning);
    report(`${kind}, held-out set`, heldout);
    expect(heldout.recall).toBeGreaterThanOrEqual(floors[kind].recall);
    expect(heldout.precision).toBeGreaterThanOrEqual(floors[kind].precision);
    expect(heldout.form).toBeGreaterThanOrEqual(floors[kind].form);
  });
});
