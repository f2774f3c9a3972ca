import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ESpeakNg from 'espeak-ng';
import { probe, tools } from '../tools/interviews/media.ts';
import { transcribeLocally } from '../tools/interviews/local-transcription.ts';
import { stopTranscriber } from '../tools/interviews/transcriber-client.ts';

/**
 * Seconds the built-in transcription takes per minute of speech, and its word error rate: a
 * minute of espeak-ng speech (a participant's answers, with pauses between them) transcribed
 * as processing does (in the transcriber process), after the process has started and loaded the
 * model (timed apart).
 */
export async function localTranscription(): Promise<{ loadSeconds: number; secondsPerMinute: number; wordErrorRate: number }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'verbatim-bench-asr-'));
  const { ffmpeg, ffprobe } = tools({ ffmpegPath: process.env.FFMPEG_PATH || null, ffprobePath: process.env.FFPROBE_PATH || null });
  const said = [
    'Last month I had to send twelve invoices to clients and the export kept timing out.',
    'I tried three times and then I gave up and copied the numbers into a spreadsheet.',
    'My manager needs the report every Friday, so I do it on Thursday night now.',
    'The search is fine, I mean it finds things, it is just slow when the list is long.',
    'What I would really like is for the report to send itself to the team.',
    'Honestly the mobile app is the part I use most, because I am on site all day.',
    'When the payment failed there was no message at all, just a spinner that never stopped.',
    'I called support and they walked me through it, which took about twenty minutes.',
  ];
  try {
    const clips: string[] = [];
    for (const [i, text] of said.entries()) {
      const e = await ESpeakNg({ arguments: ['-w', 'out.wav', '-v', 'en-us', text] });
      clips.push(path.join(dir, `clip-${i}.wav`));
      fs.writeFileSync(clips[i], e.FS.readFile('out.wav'));
    }
    const audio = path.join(dir, 'answers.mp3');
    // Each answer then a second and a half of silence (espeak's 22,050 Hz; this ffmpeg's apad counts samples).
    const pads = clips.map((_, i) => `[${i}]apad=pad_len=33075[a${i}]`).join(';');
    execFileSync(ffmpeg, ['-v', 'error', '-y', ...clips.flatMap((c) => ['-i', c]), '-filter_complex', `${pads};${clips.map((_, i) => `[a${i}]`).join('')}concat=n=${clips.length}:v=0:a=1`, audio]);
    const seconds = (await probe(ffprobe, audio)).durationSeconds ?? 60;
    let started = performance.now();
    await transcribeLocally(ffmpeg, clips[0], 0, dir); // loads the model
    const loadSeconds = (performance.now() - started) / 1000;
    started = performance.now();
    const heard = await transcribeLocally(ffmpeg, audio, 0, dir);
    const elapsed = (performance.now() - started) / 1000;
    return { loadSeconds, secondsPerMinute: (elapsed / seconds) * 60, wordErrorRate: wordErrors(said.join(' '), heard.texts.map((h) => h.text).join(' ')) };
  } finally {
    stopTranscriber();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const wordsOf = (text: string) => text.toLowerCase().replace(/[^a-z0-9' ]+/g, ' ').split(/\s+/).filter(Boolean);

/** Word error rate: the edit distance between the word sequences over the reference's length. */
function wordErrors(reference: string, hypothesis: string): number {
  const r = wordsOf(reference);
  const h = wordsOf(hypothesis);
  let prev = Array.from({ length: h.length + 1 }, (_, j) => j);
  for (let i = 1; i <= r.length; i++) {
    const row = [i];
    for (let j = 1; j <= h.length; j++) row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (r[i - 1] === h[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[h.length] / r.length;
}
