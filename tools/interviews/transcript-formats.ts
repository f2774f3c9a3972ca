import { lazyRequire } from '../../core/lazy.ts';

/** The entity tables load with the first WebVTT/SRT transcript that needs them. */
const entities = lazyRequire<typeof import('entities')>(import.meta.url, 'entities');
const decodeHTML = (text: string) => entities().decodeHTML(text);

/**
 * Imported transcripts: plain text with speaker labels, WebVTT, SRT or a JSON segment
 * list, detected from the content and parsed into timed segments with speakers.
 */
export interface ParsedSegment {
  speaker: string | null;
  text: string;
  start_ms: number | null;
  end_ms: number | null;
}

export type TranscriptFormat = 'text' | 'vtt' | 'srt' | 'json';

export class TranscriptError extends Error {}

const TIME = /(?:(\d{1,2}):)?(\d{1,2}):(\d{2})(?:[.,](\d{1,3}))?/;

function toMs(m: RegExpExecArray | RegExpMatchArray): number {
  const [, h, min, s, frac] = m;
  return ((Number(h ?? 0) * 60 + Number(min)) * 60 + Number(s)) * 1000 + (frac ? Number(frac.padEnd(3, '0')) : 0);
}

/** Refuses what is not text: NUL bytes, invalid UTF-8, or mostly control characters. */
export function decodeText(buf: Buffer): string {
  if (buf.includes(0)) throw new TranscriptError('The file is binary, not a text transcript');
  const text = new TextDecoder('utf-8', { fatal: false }).decode(buf).replace(/^\uFEFF/, '');
  const bad = (text.match(/\uFFFD/g) ?? []).length + (text.match(/[\x00-\x08\x0e-\x1f]/g) ?? []).length;
  if (bad > Math.max(3, text.length * 0.01)) throw new TranscriptError('The file is not UTF-8 text');
  return text;
}

/** A few stray control characters (a terminal's colour codes pasted in) are not speech: they go, whole. */
export const withoutControls = (text: string) =>
  text
    .replace(/\x1b\[[0-?]*[ -/]*[@-~]/g, '')
    // A vertical tab or form feed (a slide's soft line break, a PDF's page break) parts lines, as it did.
    .replace(/[\x0b\x0c]/g, '\n')
    .replace(/[\x01-\x08\x0e-\x1f\x7f]/g, '');

export function detectFormat(text: string): TranscriptFormat {
  const head = text.trimStart();
  if (head.startsWith('WEBVTT')) return 'vtt';
  if (head.startsWith('[') || head.startsWith('{')) {
    try {
      JSON.parse(head);
      return 'json';
    } catch {
      /* not JSON: fall through */
    }
  }
  if (/^\d+\s*\r?\n\s*\d{1,2}:\d{2}:\d{2}[,.]\d{1,3}\s*-->/.test(head)) return 'srt';
  return 'text';
}

/** "Name: words" → speaker and words (names are short and start with a letter). */
function splitSpeaker(line: string): { speaker: string | null; text: string } {
  const m = /^([A-Za-z\u00C0-\u024F][\w\u00C0-\u024F .'()-]{0,40}?)\s*:\s+(.+)$/.exec(line);
  if (m && !/^https?$/i.test(m[1])) return { speaker: m[1].trim(), text: m[2].trim() };
  return { speaker: null, text: line.trim() };
}

function parseCues(text: string, format: 'vtt' | 'srt'): ParsedSegment[] {
  const blocks = text.replace(/\r\n/g, '\n').split(/\n{2,}/);
  const out: ParsedSegment[] = [];
  let cue = 0;
  for (const block of blocks) {
    const lines = block.split('\n').filter((l) => l.trim() !== '');
    const timing = lines.findIndex((l) => l.includes('-->'));
    if (timing < 0) continue;
    cue++;
    const [from, to] = lines[timing].split('-->');
    const a = TIME.exec(from);
    const b = TIME.exec(to);
    if (a && b && toMs(b) < toMs(a)) throw new TranscriptError(`cue ${cue} ("${lines[timing].trim()}") ends before it starts`);
    let body = lines.slice(timing + 1).join(' ').trim();
    if (!body) continue;
    let speaker: string | null = null;
    const voice = /^<v(?:\.[\w.]+)?\s+([^>]+)>/.exec(body);
    if (format === 'vtt' && voice) {
      speaker = decodeHTML(voice[1]).trim();
      body = body.slice(voice[0].length);
    }
    // Cue markup goes first, then character references (&amp; &lt; &nbsp; ...), so an escaped "<" stays text.
    body = decodeHTML(body.replace(/<[^>]+>/g, '')).replace(/\s+/g, ' ').trim();
    if (!speaker) ({ speaker, text: body } = splitSpeaker(body));
    if (!body) continue;
    out.push({ speaker, text: body, start_ms: a ? toMs(a) : null, end_ms: b ? toMs(b) : null });
  }
  return out;
}

function parseJson(text: string): ParsedSegment[] {
  const data = JSON.parse(text) as unknown;
  const list = Array.isArray(data) ? data : (data as { segments?: unknown }).segments;
  if (!Array.isArray(list)) throw new TranscriptError('JSON transcripts are a list of segments, or { "segments": [...] }');
  return list.map((item, i) => {
    if (typeof item !== 'object' || item === null) throw new TranscriptError(`segments[${i}] must be an object`);
    const s = item as Record<string, unknown>;
    const words = s.text ?? s.content ?? s.transcript;
    if (typeof words !== 'string' || !words.trim()) throw new TranscriptError(`segments[${i}].text must be non-empty text`);
    const ms = (msKey: string, secKey: string): number | null => {
      if (typeof s[msKey] === 'number') return Math.round(s[msKey] as number);
      if (typeof s[secKey] === 'number') return Math.round((s[secKey] as number) * 1000);
      return null;
    };
    const speaker = s.speaker ?? s.speaker_label ?? s.role;
    return { speaker: typeof speaker === 'string' && speaker.trim() ? speaker.trim() : null, text: words.trim(), start_ms: ms('start_ms', 'start'), end_ms: ms('end_ms', 'end') };
  });
}

function parseText(text: string): ParsedSegment[] {
  const out: ParsedSegment[] = [];
  for (const raw of text.replace(/\r\n/g, '\n').split('\n')) {
    let line = raw.trim();
    if (!line) continue;
    let at: number | null = null;
    const lead = /^\[?\(?((?:\d{1,2}:)?\d{1,2}:\d{2}(?:[.,]\d{1,3})?)\)?\]?\s*[-–]?\s*/.exec(line);
    if (lead) {
      at = toMs(TIME.exec(lead[1])!);
      line = line.slice(lead[0].length);
    }
    const { speaker: rawSpeaker, text: words } = splitSpeaker(line);
    let speaker = rawSpeaker;
    // "Name (00:01:02): words"
    const inner = speaker && /^(.*?)\s*\(((?:\d{1,2}:)?\d{1,2}:\d{2})\)$/.exec(speaker);
    if (inner) {
      speaker = inner[1].trim();
      at = toMs(TIME.exec(inner[2])!);
    }
    const prev = out[out.length - 1];
    if (!speaker && prev && at === null) {
      prev.text += ` ${words}`;
      continue;
    }
    out.push({ speaker, text: words, start_ms: at, end_ms: null });
  }
  return out;
}

const WORDS_PER_MS = 2.5 / 1000;

/** Fills missing times from speech rate (150 words a minute) and closes open ends. */
function fillTimes(segments: ParsedSegment[]): { segments: ParsedSegment[]; estimated: boolean } {
  let estimated = false;
  let cursor = 0;
  for (const [i, s] of segments.entries()) {
    const duration = Math.max(1000, Math.round(s.text.split(/\s+/).length / WORDS_PER_MS));
    if (s.start_ms === null) {
      s.start_ms = cursor;
      estimated = true;
    }
    if (s.end_ms === null) {
      const next = segments[i + 1]?.start_ms;
      s.end_ms = next != null && next > s.start_ms ? next : s.start_ms + duration;
    }
    cursor = Math.max(cursor, s.end_ms);
  }
  return { segments, estimated };
}

export function parseTranscript(text: string): { format: TranscriptFormat; segments: ParsedSegment[]; estimatedTiming: boolean } {
  if (!text.trim()) throw new TranscriptError('The transcript is empty');
  const format = detectFormat(text);
  const parsed = format === 'json' ? parseJson(text) : format === 'text' ? parseText(text) : parseCues(text, format);
  if (!parsed.length) throw new TranscriptError(`No transcript text found in this ${format.toUpperCase()} file`);
  if (parsed.length > 20_000) throw new TranscriptError('The transcript has more than 20,000 segments');
  const { segments, estimated } = fillTimes(parsed);
  return { format, segments, estimatedTiming: estimated };
}

const INTERVIEWER = /^(interviewer|researcher|moderator|host|facilitator|conductor|assistant|agent|q|question|me|us)\b/i;
const PARTICIPANT = /^(participant|respondent|customer|user|interviewee|guest|a|answer)\b/i;

/**
 * Which speaker is the interviewer: a name that says so, else whoever asks the most
 * questions. Everyone else is a participant; without speakers, everything is.
 */
export function assignRoles(segments: ParsedSegment[]): Array<'participant' | 'interviewer' | 'unknown'> {
  const speakers = [...new Set(segments.map((s) => s.speaker).filter((s): s is string => !!s))];
  let interviewers = new Set(speakers.filter((s) => INTERVIEWER.test(s)));
  if (!interviewers.size && speakers.length >= 2 && !speakers.some((s) => PARTICIPANT.test(s))) {
    const questionRate = (name: string) => {
      const turns = segments.filter((s) => s.speaker === name);
      return turns.filter((t) => t.text.trim().endsWith('?')).length / Math.max(1, turns.length);
    };
    const ranked = [...speakers].sort((a, b) => questionRate(b) - questionRate(a));
    if (questionRate(ranked[0]) > questionRate(ranked[1])) interviewers = new Set([ranked[0]]);
  } else if (!interviewers.size && speakers.some((s) => PARTICIPANT.test(s))) {
    interviewers = new Set(speakers.filter((s) => !PARTICIPANT.test(s)));
  }
  return segments.map((s) => (!s.speaker ? (speakers.length ? 'unknown' : 'participant') : interviewers.has(s.speaker) ? 'interviewer' : 'participant'));
}
