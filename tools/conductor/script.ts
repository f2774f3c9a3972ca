import { sentences } from '../../core/sentences.ts';

/** A study script segment as the conductor runs it (SPEC 2.9). */
export interface Segment {
  id: string;
  mode: 'speak' | 'observe' | 'talk';
  title: string;
  speak_text?: string;
  instruction?: string;
  conductor_context?: string;
}

/** Interviews without a study still get a conversation. */
const FALLBACK: Segment[] = [
  { id: 'welcome', mode: 'speak', title: 'Welcome', speak_text: 'Thanks for taking the time to talk with us.' },
  { id: 'experience', mode: 'talk', title: 'Your experience', instruction: 'What have you been trying to get done with the product lately? What got in your way?' },
];

export function segmentsOf(scriptJson: string | null | undefined): Segment[] {
  if (!scriptJson) return FALLBACK;
  const script = JSON.parse(scriptJson) as { segments?: Segment[] };
  return script.segments?.length ? script.segments : FALLBACK;
}

const PRONOUNS: Array<[RegExp, string]> = [
  [/\bthey're\b/gi, "you're"],
  [/\bthemselves\b/gi, 'yourself'],
  [/\btheir\b/gi, 'your'],
  [/\bthem\b/gi, 'you'],
  [/\bthey\b/gi, 'you'],
  [/\b(?:the )?(?:participant|user|customer)'s\b/gi, 'your'],
];

const secondPerson = (text: string) => PRONOUNS.reduce((t, [re, to]) => t.replace(re, to), text);
const sentence = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * The questions the built-in interviewer asks in a talk segment, read from its instruction:
 * sentences that are questions are asked as written; "Ask (them) about/how/why …" becomes a
 * question to the participant; other sentences are guidance for the interviewer, not asked.
 * Without any, it asks about the segment's title.
 */
export function questionsOf(segment: Segment): string[] {
  const questions: string[] = [];
  for (const { text: s } of sentences(segment.instruction ?? '')) {
    if (s.endsWith('?')) {
      questions.push(s);
      continue;
    }
    const ask = /^ask\s+(?:them\s+|the\s+(?:participant|user|customer)\s+)?(about|how|why|what|whether|if|when|where|which|who)\b\s*(.*?)[.!]?$/i.exec(s);
    if (!ask) continue;
    const [, word, rest] = ask;
    const body = secondPerson(rest);
    const lead = word.toLowerCase();
    if (lead === 'about') questions.push(`Could you tell me about ${body}?`);
    else if (lead === 'whether' || lead === 'if') questions.push(`Could you tell me ${lead} ${body}?`);
    else questions.push(sentence(`${lead} ${body}?`));
  }
  return questions.length ? questions : [`Could you tell me about ${segment.title.toLowerCase()}?`];
}
