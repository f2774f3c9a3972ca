import { validScript } from './fixtures.ts';

/**
 * Text written for the interviewer rather than the participant, checked independently of the
 * conductor's own guard: third person about the participant, coaching, goal references.
 */
const PATTERNS: Array<[RegExp, string]> = [
  [/\bthe (?:participant|user|customer|respondent)s?\b|\bparticipant/i, 'the participant'],
  [/\bdo not\b|\bdon't\b/i, 'Do not …'],
  [/\bserves\s+g-|\bg-[a-z]/i, 'Serves g-'],
  [/\b(?:they|them|their|themselves)\b/i, 'third-person "they"'],
  [/\b(?:interviewer|instructions?)\b/i, 'interviewer'],
];
const COACHING = /^(?:then\s+)?(?:ask|note|watch|observe|prefer|keep|stay|avoid|help|let|probe|explore|find|learn|understand|make|ensure|remember|listen|focus|look|record|track|follow|wait|capture|check|never|serve)\b/i;

export function directedText(text: string): string | null {
  for (const [re, why] of PATTERNS) if (re.test(text)) return why;
  for (const sentence of text.split(/(?<=[.!?])\s+/)) {
    if (!sentence.trim().endsWith('?') && COACHING.test(sentence.trim())) return 'imperative coaching';
  }
  return null;
}

/** The scripts the conductor tests run (test/conductor.test.ts, and copies from widget, ssrf and evidence tests). */
export const conductorScript = {
  version: 2,
  goals: [{ id: 'g1', description: 'Understand exporting' }],
  segments: [
    { id: 'hello', mode: 'speak', title: 'Hello', speak_text: 'Welcome, thanks for joining.' },
    { id: 'try', mode: 'observe', title: 'Try it', instruction: "Export last month's report as you normally would." },
    { id: 'ask', mode: 'talk', title: 'Exporting', instruction: 'Ask about the last time they exported a report. What got in the way?', conductor_context: 'Serves g1' },
  ],
};

export const conductorScripts: Record<string, { segments: unknown[] }> = {
  conductor: conductorScript,
  fixture: validScript,
  widget: {
    segments: [
      { id: 'hello', mode: 'speak', title: 'Hello', speak_text: 'Welcome, thanks for joining.' },
      { id: 'ask', mode: 'talk', title: 'Exporting', instruction: 'Ask about the last time they exported a report.', conductor_context: 'Serves g1' },
    ],
  },
  ssrf: { segments: [{ id: 'ask', mode: 'talk', title: 'Exporting', instruction: 'Ask about the last time they exported a report.' }] },
  evidence: { segments: [{ id: 's', mode: 'talk', title: 'Ask', instruction: 'Ask about g1 and g2' }] },
};
