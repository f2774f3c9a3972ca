import { describe, expect, it } from 'vitest';
import { speechChunks } from '../tools/interviews/speech-chunks.ts';
import { rolesByVoice } from '../tools/interviews/speakers.ts';
import { withoutLoops } from '../tools/interviews/speech-model.ts';
import { readsLanguage } from '../tools/interviews/local-transcription.ts';

const RATE = 16_000;
/** A 200 Hz tone burst for `seconds`, at `level`. */
const burst = (seconds: number, level: number) => Float32Array.from({ length: seconds * RATE }, (_, i) => level * Math.sin((2 * Math.PI * 200 * i) / RATE));
const join = (...parts: Float32Array[]) => {
  const out = new Float32Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) out.set(p, (at += p.length) - p.length);
  return out;
};

describe('where the speech is', () => {
  it('finds utterances between pauses, and none in silence, steady noise or samples that are not numbers', () => {
    const chunks = speechChunks(join(new Float32Array(RATE), burst(2, 0.3), new Float32Array(RATE), burst(1, 0.3), new Float32Array(RATE)));
    expect(chunks).toHaveLength(2);
    expect(chunks[0].start / RATE).toBeCloseTo(0.85, 1);
    expect(chunks[1].end / RATE).toBeCloseTo(5.15, 1);
    expect(speechChunks(new Float32Array(5 * RATE))).toEqual([]);
    expect(speechChunks(burst(5, 0.3))).toEqual([]); // a hum: the same level throughout
    expect(speechChunks(new Float32Array(5 * RATE).fill(Number.NaN))).toEqual([]);
    expect(speechChunks(new Float32Array(10))).toEqual([]);
  });

  it('finds a remark or two in minutes of quiet, as in a recording of someone working through a task (walkthrough 42)', () => {
    const hiss = (seconds: number) => Float32Array.from({ length: seconds * RATE }, (_, i) => 0.002 * Math.sin(i * 12.9898) * Math.sin(i * 0.7));
    const chunks = speechChunks(join(hiss(250), burst(4.8, 0.2), hiss(45)));
    expect(chunks).toHaveLength(1);
    expect(chunks[0].start / RATE).toBeCloseTo(249.85, 0);
    expect(speechChunks(join(burst(3, 0.2), hiss(175), burst(2, 0.2)))).toHaveLength(2);
    expect(speechChunks(hiss(300))).toEqual([]);
  });

  it('cuts a long run at its quiet moments, each piece short enough for the model', () => {
    const parts: Float32Array[] = [new Float32Array(RATE)];
    for (let i = 0; i < 30; i++) parts.push(burst(1.8, 0.3), new Float32Array(0.2 * RATE)); // a minute with only short breaths
    const chunks = speechChunks(join(...parts));
    expect(chunks.length).toBeGreaterThanOrEqual(3);
    for (const c of chunks) expect((c.end - c.start) / RATE).toBeLessThanOrEqual(20.2);
  });
});

describe('loops in what the model says', () => {
  it('cuts a phrase said four times to one, but never a number', () => {
    const digits = new Set([7, 8]);
    expect(withoutLoops([1, 2, 3, 2, 3, 2, 3, 2, 3, 4], (t) => digits.has(t))).toEqual([1, 2, 3, 4]);
    expect(withoutLoops([5, 5, 5, 5, 5], (t) => digits.has(t))).toEqual([5, 5]);
    expect(withoutLoops([1, 7, 8, 8, 8, 8, 8], (t) => digits.has(t))).toEqual([1, 7, 8, 8, 8, 8, 8]);
  });
});

describe('who spoke', () => {
  const said = (pitch: number | null, text: string) => ({ pitch, text });
  it('names the voice that asks the interviewer, and only when the two voices and their roles are clear', () => {
    const interview = [said(10, 'How did it go?'), said(22, 'Badly.'), said(11, 'Why?'), said(23, 'It crashed.'), said(10, 'And then?'), said(22, 'I left.')];
    expect(rolesByVoice(interview)).toEqual(['interviewer', 'participant', 'interviewer', 'participant', 'interviewer', 'participant']);
    // Voices too close, one voice, too few, or both asking: unknown.
    expect(rolesByVoice(interview.map((u, i) => ({ ...u, pitch: i % 2 ? 12 : 10 })))).toBeNull();
    expect(rolesByVoice(interview.map((u) => ({ ...u, pitch: 15 })))).toBeNull();
    expect(rolesByVoice(interview.slice(0, 3))).toBeNull();
    expect(rolesByVoice(interview.map((u) => ({ ...u, text: `${u.text.replace(/[.?]$/, '')}?` })))).toBeNull();
    // An interviewer whose questions lost their marks in transcription still asks: a "?" inside a line, "Tell me about…", "Anything else."
    const unmarked = [said(10, 'Morning. Can you hear me? Okay.'), said(22, 'Loud and clear.'), said(11, 'Tell me about the last time you made a rota.'), said(23, 'In October.'), said(10, 'Anything else.'), said(22, 'No.'), said(11, 'How did it go.'), said(23, 'Badly.')];
    expect(rolesByVoice(unmarked)).toEqual(['interviewer', 'participant', 'interviewer', 'participant', 'interviewer', 'participant', 'interviewer', 'participant']);
    // A usability session: tasks set as requests ("Please try…", "Let's look at…") and a welcome, whose question marks transcription dropped.
    const session = [
      said(8.5, "Thanks for joining. Could you start by finding last year's invoice."), said(19.4, 'Sure, I type invoice 2023 into the search box.'),
      said(7.2, 'What did you expect to happen here?'), said(18.8, 'A list of my invoices. This is really frustrating.'),
      said(8, "Okay, let's move on. Please try to upgrade your plan on the checkout page."), said(19.6, 'I clicked pay now and my card was declined.'),
      said(7.5, "Let's look at the settings page. What do you see here?"), said(19, 'This is where I can change the payment method.'),
      said(8, 'Great, thank you so much. That is all for today.'), said(19.2, 'I wish search looked inside the archive.'),
    ];
    expect(rolesByVoice(session)).toEqual(session.map((_, i) => (i % 2 ? 'participant' : 'interviewer')));
    // A participant who asks a question now and then is still the participant; one with no pitch stays unknown.
    const asking = [...interview, said(22, 'Is that normal?'), said(null, 'Hm.')];
    expect(rolesByVoice(asking)).toEqual([...rolesByVoice(interview)!, 'participant', 'unknown']);
  });

  it('reads English and its regional tags', () => {
    expect([null, 'en', 'en-GB', 'eng', 'EN-us'].map(readsLanguage)).toEqual([true, true, true, true, true]);
    expect(['de', 'pt-BR', 'enx'].map(readsLanguage)).toEqual([false, false, false]);
  });
});
