/**
 * Telling the interviewer from the participant in a transcribed recording, without a
 * diarisation model: by the pitch of each utterance's voice, and only when the recording
 * clearly holds two voices, one of which asks the questions. Anything less clear leaves the
 * speakers unknown, as a transcription service does.
 */

import { RATE } from './audio-samples.ts';

const WINDOW = 480; // 30 ms: two periods of a 70 Hz voice
const HOP = 2 * WINDOW; // every other window is plenty for a median, at half the cost
const MIN_LAG = Math.floor(RATE / 400);
const MAX_LAG = Math.ceil(RATE / 70);
const MIN_VOICED_FRAMES = 5;

/** The median pitch of the voiced frames, in semitones above 55 Hz, or null when too little is voiced. */
export function pitchOf(samples: Float32Array): number | null {
  const pitches: number[] = [];
  for (let s = 0; s + WINDOW + MAX_LAG < samples.length; s += HOP) {
    let energy = 0;
    for (let i = s; i < s + WINDOW; i++) energy += samples[i] * samples[i];
    if (Math.sqrt(energy / WINDOW) < 0.01) continue;
    let best = 0;
    let bestLag = 0;
    for (let lag = MIN_LAG; lag <= MAX_LAG; lag++) {
      let cross = 0;
      let shifted = 0;
      for (let i = s; i < s + WINDOW; i++) {
        cross += samples[i] * samples[i + lag];
        shifted += samples[i + lag] * samples[i + lag];
      }
      const r = cross / Math.sqrt(energy * shifted + 1e-12);
      if (r > best) [best, bestLag] = [r, lag];
    }
    if (best > 0.6) pitches.push(12 * Math.log2(RATE / bestLag / 55));
  }
  if (pitches.length < MIN_VOICED_FRAMES) return null;
  pitches.sort((a, b) => a - b);
  return pitches[pitches.length >> 1];
}

/** Fewer utterances than this cannot show two voices with two each. */
export const MIN_UTTERANCES = 4;

export interface Utterance {
  pitch: number | null;
  text: string;
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
/**
 * A line that asks: a question anywhere in it ("Can you hear me? Okay."), or a sentence that asks for something
 * ("Tell me about…", "Anything else.", "Please try to upgrade your plan.", "Let's look at the settings page."):
 * transcription often drops the question mark.
 */
const ASKS = /^(?:(?:and|so|ok(?:ay)?|great|right|now|next|finally|alright|then),?\s+)*(?:tell me|walk me|talk me|describe|anything else|please|let'?s|could you|can you|would you|will you|try|show me|go ahead|have a look|take a look)\b/i;
const isQuestion = (text: string) => /\?/.test(text) || text.split(/(?<=[.!])\s+/).some((s) => ASKS.test(s.trim()));

/**
 * Roles by voice: the utterances split at the widest pitch gap into a lower and a higher voice,
 * at least 4 semitones apart on average with a clear gap between them, two utterances or more
 * each; the voice that asks (60 % or more of its utterances are questions, against a quarter or
 * less of the other's) is the interviewer's. Null when the recording does not show that: a
 * participant's words taken for the interviewer's would be lost as evidence.
 */
export function rolesByVoice(utterances: Utterance[]): Array<'interviewer' | 'participant' | 'unknown'> | null {
  const voiced = utterances.map((u, i) => ({ ...u, i })).filter((u): u is Utterance & { pitch: number; i: number } => u.pitch !== null);
  if (voiced.length < MIN_UTTERANCES) return null;
  voiced.sort((a, b) => a.pitch - b.pitch);
  let split = 0;
  let widest = 0;
  for (let k = 2; k <= voiced.length - 2; k++) {
    const gap = voiced[k].pitch - voiced[k - 1].pitch;
    if (gap > widest) [widest, split] = [gap, k];
  }
  if (split === 0 || widest < 1.5) return null;
  const low = voiced.slice(0, split);
  const high = voiced.slice(split);
  if (mean(high.map((u) => u.pitch)) - mean(low.map((u) => u.pitch)) < 4) return null;
  const asks = (group: Utterance[]) => group.filter((u) => isQuestion(u.text)).length / group.length;
  const [lowAsks, highAsks] = [asks(low), asks(high)];
  const interviewer = lowAsks >= 0.6 && highAsks <= 0.25 ? low : highAsks >= 0.6 && lowAsks <= 0.25 ? high : null;
  if (!interviewer) return null;
  const roles: Array<'interviewer' | 'participant' | 'unknown'> = utterances.map(() => 'unknown');
  for (const u of voiced) roles[u.i] = interviewer.includes(u) ? 'interviewer' : 'participant';
  return roles;
}
