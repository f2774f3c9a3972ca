import { lazyRequire } from '../../core/lazy.ts';
import { unsafeText } from '../../core/input-guard.ts';
import { NOT_SPEECH } from '../../core/stage-directions.ts';

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
  // Cues without the WEBVTT line that should head them, in blocks apart as cues are: a numbered first cue is SRT,
  // a timing line first is WebVTT. Timed lines that run on without blank lines are read as text, as they were.
  const blocks = head.replace(/\r\n/g, '\n').split(/\n[ \t]*\n/);
  const [first, second] = blocks[0].split('\n', 2).map((l) => l.trim());
  const cued = blocks.every((b) => b.split('\n').filter((l) => CUE_TIMING.test(l.trim())).length <= 1);
  if (cued && /^\d+$/.test(first) && CUE_TIMING.test(second ?? '')) return 'srt';
  if (cued && CUE_TIMING.test(first)) return 'vtt';
  return 'text';
}

/** A cue's timing line: "00:01:02.500 --> 00:01:05.000" (SRT writes "00:01:02,500"; the fraction may be left out). */
const CUE_TIMING = /^((?:\d{1,2}:)?\d{1,2}:\d{2}(?:[.,]\d{1,3})?)[ \t]*-->[ \t]*((?:\d{1,2}:)?\d{1,2}:\d{2}(?:[.,]\d{1,3})?)(?=[ \t]|$)/;
/** What may follow a WebVTT cue's timing on its line: settings such as "align:start position:10%". */
const CUE_SETTINGS = /^(?:[ \t]+[\w-]+:\S+)*[ \t]*$/;

/** A cue's times, and the words after them on its line that are not its settings ("" when there are none). */
function cueTimingOf(line: string): { start: number; end: number; said: string } | null {
  const m = CUE_TIMING.exec(line.trim());
  if (!m) return null;
  const rest = line.trim().slice(m[0].length);
  return { start: toMs(TIME.exec(m[1])!), end: toMs(TIME.exec(m[2])!), said: CUE_SETTINGS.test(rest) ? '' : rest.trim() };
}
/**
 * A line that meant to time a cue but cannot be read as one ("00:00:12.000 -> 00:00:15.000", "banana --> 00:00:30.000").
 * Bounded pieces: a line of many "0:00" would otherwise be scanned again from each one.
 */
const BROKEN_TIMING = /-->|^\S{0,24}\d:\d{2}\S{0,24}[ \t]*-+>/;
/** WebVTT blocks that are no cue: a comment, a style sheet, a region. */
const NOT_A_CUE = /^(?:NOTE|STYLE|REGION)(?:[ \t]|$)/;

/** "Name: words" → speaker and words (names are short and start with a letter); "Name (00:01:02): words" too. */
function splitSpeaker(line: string): { speaker: string | null; text: string } {
  const m = /^([A-Za-z\u00C0-\u024F][\w\u00C0-\u024F .'()-]{0,40}?(?:\s*\((?:\d{1,2}:)?\d{1,2}:\d{2}\))?)\s*:\s+(.+)$/.exec(line);
  if (m && !/^https?$/i.test(m[1])) return { speaker: m[1].trim(), text: m[2].trim() };
  return { speaker: null, text: line.trim() };
}

const NAME = String.raw`[A-Za-z\u00C0-\u024F][\w\u00C0-\u024F .'-]{0,40}?`;
const AT = String.raw`\[?\(?((?:\d{1,2}:)?\d{1,2}:\d{2})(?:[.,]\d{1,3})?\)?\]?`;
/**
 * A line that only names who speaks next and when, the words on the lines below it: "Maria Lopez  0:09"
 * (Otter), "00:00:05 Interviewer", "Maria (00:00:09)".
 */
const HEADER = [new RegExp(`^(${NAME})\\s+${AT}$`), new RegExp(`^${AT}\\s+(${NAME})$`), new RegExp(`^(${NAME})\\s*${AT}:$`)];
/** "Maria:" alone on its line, or a bare name ("Maria Lopez") where a transcript is laid out that way. */
const LABEL_LINE = new RegExp(`^(${NAME}):$`);
const NAME_LINE = /^[A-Z\u00C0-\u00DE][\w\u00C0-\u024F'-]*(?: [A-Z\u00C0-\u00DE][\w\u00C0-\u024F'-]*){0,2}$/;
function headerOf(line: string, bareNames = false): { speaker: string; at: number | null } | null {
  const named = HEADER[0].exec(line);
  if (named) return { speaker: named[1].trim(), at: toMs(TIME.exec(named[2])!) };
  const timed = HEADER[1].exec(line);
  if (timed) return { speaker: timed[2].trim(), at: toMs(TIME.exec(timed[1])!) };
  // "Speaker 1 (00:00:05):" (Rev, Temi) on a line of its own.
  const labelled = HEADER[2].exec(line);
  if (labelled) return { speaker: labelled[1].trim(), at: toMs(TIME.exec(labelled[2])!) };
  const label = LABEL_LINE.exec(line);
  if (label && !/^https?$/i.test(label[1])) return { speaker: label[1].trim(), at: null };
  return bareNames && NAME_LINE.test(line) ? { speaker: line, at: null } : null;
}
/**
 * Speaker lines are a format only when the transcript opens with one and has two or more: "Meeting at 10:30" alone stays words.
 * Bare names count only when they come back (two to four speakers, one of them at least twice), so a one-word answer is no speaker.
 */
function headerMode(lines: string[]): { headed: boolean; bareNames: boolean } {
  const said = lines.map((l) => l.trim()).filter(Boolean);
  if (said.length < 2) return { headed: false, bareNames: false };
  // (A tool's preamble before the first one, a file name or "This transcript was exported on…", is left out by parseText.)
  if (said.slice(0, PREAMBLE + 1).some((l) => headerOf(l)) && said.filter((l) => headerOf(l)).length >= 2) return { headed: true, bareNames: false };
  const names = said.filter((l, i) => NAME_LINE.test(l) && i + 1 < said.length && !NAME_LINE.test(said[i + 1]));
  const distinct = new Set(names);
  const bare = NAME_LINE.test(said[0]) && names.length >= 3 && distinct.size >= 2 && distinct.size <= 4 && names.length > distinct.size && names.length * 3 >= said.length;
  return { headed: bare, bareNames: bare };
}

/** A speaker's label with when they spoke: "Maria (00:01:02)". */
const SPOKEN_AT = /^(.*?)\s*\(((?:\d{1,2}:)?\d{1,2}:\d{2})\)$/;
/** A time on a line of its own: "00:05:00", "[00:05]". */
const TIME_LINE = new RegExp(`^${AT}$`);
/** Markdown a document is laid out with: a heading, a rule. */
const MARKUP = /^(?:#{1,6}\s|[-*_]{3,}$)/;

/** Who the interview was with and who ran it, as a document's header says ("Participant: Carol Hendricks, teacher"). */
export interface TranscriptHeader {
  interviewer: string | null;
  participant: string | null;
  /** When the interview took place, from a "Date: 14 March 2025" line (ISO 8601), if it names a year. */
  date: string | null;
}

const noHeader = (): TranscriptHeader => ({ interviewer: null, participant: null, date: null });

/** "14 March 2025", "2025-03-11 16:02 GMT": a date with its year, not after today. */
function dateOf(value: string): string | null {
  if (!/\b(?:19|20)\d{2}\b/.test(value)) return null;
  const at = Date.parse(value.replace(/\s*\(.*\)\s*$/, ''));
  return Number.isFinite(at) && at <= Date.now() + 86_400_000 ? new Date(at).toISOString() : null;
}

const HEADER_ROLE: Record<string, 'interviewer' | 'participant'> = {
  interviewer: 'interviewer', moderator: 'interviewer', facilitator: 'interviewer', researcher: 'interviewer', host: 'interviewer',
  participant: 'participant', interviewee: 'participant', respondent: 'participant', customer: 'participant', user: 'participant',
};
const HEADER_FIELD = /^(?:date|time|duration|length|location|place|study|project|title|topic|recorded|recording|session|attendees|company|organi[sz]ation|role|team|product|notes?|tags?|interview|source|language)$/i;
/** "Carol Hendricks", "Sam (UX)", "Carol Hendricks, Year 9 English teacher": a name and what they do, not a sentence. */
const PERSON = /^([A-Z\u00C0-\u00DE][\w\u00C0-\u024F'.-]*(?: [A-Z\u00C0-\u00DE][\w\u00C0-\u024F'.-]*){0,3})(?:\s*(?:,|\(|–|—| - ).{0,80})?$/;

/**
 * The lines a document opens with before the conversation: a title, then "Participant: …",
 * "Interviewer: Sam", "Date: 14 March". They are read as the interview's details, not as turns,
 * only when they name people who then speak (or carry a date, a duration…): "Interviewer: Hi Carol" is a turn.
 */
function headerBlock(lines: string[]): { skip: number; header: TranscriptHeader } {
  const header = noHeader();
  // Who speaks in the first pages: a person named in the header is one of them.
  const turns = new Map<string, number>();
  for (const l of lines.slice(0, 400)) {
    const plain = plainLabel(l.trim());
    const labelled = splitSpeaker(plain).speaker;
    const who = labelled ? (SPOKEN_AT.exec(labelled)?.[1] ?? labelled) : headerOf(plain)?.speaker;
    if (who) for (const name of new Set([who, who.split(' ')[0]])) turns.set(name, (turns.get(name) ?? 0) + 1);
  }
  let skip = 0;
  let fields = 0;
  for (let i = 0; i < lines.length && i < 20; i++) {
    const line = lines[i].trim().replace(/\*\*|__/g, '');
    // A markdown title ("# Interview: Rosa Delgado") or rule above the details.
    if (!line || MARKUP.test(line)) continue;
    const field = /^([A-Za-z]+(?: [A-Za-z]+)?)\s*:\s*(.{1,120})$/.exec(line);
    const key = field?.[1].toLowerCase() ?? '';
    const person = field && HEADER_ROLE[key] ? PERSON.exec(field[2].trim()) : null;
    // "Interviewer: Sam" names who speaks as "Sam:"; in a transcript whose turns are "Interviewer: …", it is a turn.
    if (person && turns.has(person[1].split(' ')[0]) && (turns.get(field![1]) ?? 0) <= 1) {
      header[HEADER_ROLE[key]] ??= person[1];
    } else if (field && /^date$/i.test(key) && field[2].split(/\s+/).length <= 10) {
      header.date ??= dateOf(field[2].trim());
    } else if (!field || !HEADER_FIELD.test(key) || field[2].split(/\s+/).length > 10) {
      // A title above the details ("Gradebook study – Interview 4"): no colon, not a sentence.
      if (!fields && !line.includes(':') && line.split(/\s+/).length <= 12 && !/[.?!]$/.test(line)) continue;
      break;
    }
    fields++;
    skip = i + 1;
  }
  return fields ? { skip, header } : { skip: 0, header };
}

/** At most this many lines a tool writes above the conversation (a title, attendees, "Transcript", a disclaimer, a time) are left out. */
const PREAMBLE = 8;
/** What a tool writes around a conversation, not said in it. */
const TOOL_LINE = /^(?:meeting ended after\b|transcription ended\b|recording (?:stopped|ended)\b|this (?:editable )?transcript was\b|transcript$|attendees$)/i;
const boilerplate = (line: string) => TOOL_LINE.test(line) || MARKUP.test(line);

const TIMED_BOLD = new RegExp(String.raw`^(\*\*|__)(${NAME})\1\s*[[(]((?:\d{1,2}:)?\d{1,2}:\d{2})(?:[.,]\d{1,3})?[\])]\s*:?\s*(.*)$`);
/** A speaker's name in brackets, as captions write it: "[JENNA] words". */
const BRACKETED_NAME = new RegExp(`^${NAME}$`);

/** "- **Maria:** words", "> Maria: words", "[Maria] words": list, quote and emphasis marks around a speaker's label go. */
function plainLabel(line: string): string {
  const bare = line.replace(/^(?:[-*•>]\s+)+/, '');
  // "**Kofi Mensah** [00:00:04]" (Dovetail, Descript): a name in bold and when, the words after it or below.
  const timedBold = TIMED_BOLD.exec(bare);
  if (timedBold) return `${timedBold[2]} (${timedBold[3]}):${timedBold[4] ? ` ${timedBold[4]}` : ''}`;
  const emphasised = /^(\*\*|__|\*|_)([^*_\n]{1,40}?)(:?)\1(:?)\s+(.*)$/.exec(bare);
  if (emphasised && (emphasised[3] || emphasised[4])) return `${emphasised[2]}: ${emphasised[5]}`;
  const bracketed = /^\[([A-Za-z\u00C0-\u024F][\w\u00C0-\u024F .'-]{0,40})\]\s+(.+)$/.exec(bare);
  if (bracketed && !NOT_SPEECH.test(bracketed[1].trim())) return `${bracketed[1]}: ${bracketed[2]}`;
  return bare;
}

function parseCues(text: string, format: 'vtt' | 'srt'): ParsedSegment[] {
  const blocks = text.replace(/\r\n/g, '\n').split(/\n{2,}/);
  const out: ParsedSegment[] = [];
  let cue = 0;
  for (const block of blocks) {
    const lines = block.split('\n').filter((l) => l.trim() !== '');
    if (format === 'vtt' && NOT_A_CUE.test(lines[0]?.trim() ?? '')) continue;
    const timing = lines.findIndex((l) => CUE_TIMING.test(l.trim()));
    const broken = timing < 0 ? lines.findIndex((l) => BROKEN_TIMING.test(l.trim())) : -1;
    // Speech under a timing line that cannot be read would be lost or misplaced: said, as a backwards cue is.
    if (timing < 0 && broken >= 0) throw new TranscriptError(`cue ${cue + 1} ("${lines[broken].trim().slice(0, 60)}") has no readable timing: write it as 00:00:12.000 --> 00:00:15.000`);
    if (timing < 0) continue;
    cue++;
    const { start, end, said } = cueTimingOf(lines[timing])!;
    if (end < start) throw new TranscriptError(`cue ${cue} ("${lines[timing].trim()}") ends before it starts`);
    // Words on the timing line after its times are said in the cue.
    let body = [said, ...lines.slice(timing + 1)].join(' ').trim();
    if (!body) continue;
    let speaker: string | null = null;
    const voice = /^<v(?:\.[\w.]+)?[ \t]([^>]*)>/.exec(body);
    if (format === 'vtt' && voice && voice[1].trim()) {
      speaker = decodeHTML(voice[1]).trim();
      body = body.slice(voice[0].length);
    }
    // Cue markup goes first, then character references (&amp; &lt; &nbsp; ...), so an escaped "<" stays text.
    body = decodeHTML(body.replace(/<[^<>]*>/g, '')).replace(/\s+/g, ' ').trim();
    // "[JENNA] Okay, we're rolling." (a video editor's captions): a speaker in brackets; "[MUSIC]" is no speech.
    const bracketed = !speaker ? /^\[([^\]]{1,40})\]\s*(.*)$/.exec(body) : null;
    if (bracketed && NOT_SPEECH.test(bracketed[1].trim())) body = bracketed[2];
    else if (bracketed && BRACKETED_NAME.test(bracketed[1]) && bracketed[2]) [speaker, body] = [nameCase(bracketed[1].trim()), bracketed[2]];
    if (!speaker) ({ speaker, text: body } = splitSpeaker(body));
    if (!body) continue;
    out.push({ speaker, text: body, start_ms: start, end_ms: end });
  }
  return out;
}

/** "JENNA" as "Jenna"; "McKenzie" as written. */
const nameCase = (name: string) => (name === name.toUpperCase() ? name.toLowerCase().replace(/(^|[\s'-])(\p{L})/gu, (_m, b: string, c: string) => b + c.toUpperCase()) : name);

/** The longest interview a transcript may time: a day. */
const MAX_MS = 24 * 3600 * 1000;
/** A speaker is a name or a label, not a paragraph. */
const MAX_SPEAKER = 200;

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
      const at = typeof s[msKey] === 'number' ? Math.round(s[msKey] as number) : typeof s[secKey] === 'number' ? Math.round((s[secKey] as number) * 1000) : null;
      if (at !== null && !(at >= 0 && at <= MAX_MS)) throw new TranscriptError(`segments[${i}].${typeof s[msKey] === 'number' ? msKey : secKey} must be a time from 0 to 24 hours`);
      return at;
    };
    const speaker = s.speaker ?? s.speaker_label ?? s.role;
    const name = typeof speaker === 'string' && speaker.trim() ? speaker.trim() : null;
    if (name && name.length > MAX_SPEAKER) throw new TranscriptError(`segments[${i}].speaker must be at most ${MAX_SPEAKER} characters`);
    for (const [field, value] of [['text', words], ['speaker', name ?? '']]) {
      if (unsafeText(value)) throw new TranscriptError(`segments[${i}].${field} must not contain NUL characters or unpaired surrogates`);
    }
    const start_ms = ms('start_ms', 'start');
    const end_ms = ms('end_ms', 'end');
    if (start_ms !== null && end_ms !== null && end_ms < start_ms) throw new TranscriptError(`segments[${i}] ends before it starts`);
    return { speaker: name, text: words.trim(), start_ms, end_ms };
  });
}

/** "… to pay? Tom: I, uh, …": a speaker's label after the end of a sentence, inside a line. */
const INLINE_LABEL = /([.?!…]["”'’)]?)[ \t]+([A-Z][\w'’-]{0,20}(?: [A-Z][\w'’-]{0,20})?):[ \t]/g;

/**
 * A conversation pasted without its line breaks ("Maya: How did it go? Tom: It was fine. Maya: …") goes back
 * to a line a turn: when the line's own speaker speaks again in it, it is cut at the labels of the two who
 * take turns (the line's speaker and the first one after them). "Error: card declined" inside a turn stays text.
 */
function turnsPerLine(lines: string[]): string[] {
  return lines.flatMap((line) => {
    const labels = [...line.matchAll(INLINE_LABEL)];
    const lead = labels.length ? splitSpeaker(line.trim()).speaker : null;
    if (!lead || !labels.some((m) => m[2] === lead)) return [line];
    const other = labels[0][2];
    const cuts = labels.filter((m) => m[2] === lead || m[2] === other).map((m) => m.index + m[1].length);
    return [0, ...cuts].map((at, k) => line.slice(at, cuts[k] ?? line.length));
  });
}

function parseText(text: string): { segments: ParsedSegment[]; header: TranscriptHeader } {
  const out: ParsedSegment[] = [];
  // A cue's timing on a line of its own ("00:00:01.000 --> 00:00:04.000") times the line after it.
  let timed: number | null = null;
  const all = text.replace(/\r\n/g, '\n').split('\n');
  const { skip, header } = headerBlock(all);
  const lines = turnsPerLine(all.slice(skip).map((l) => plainLabel(l.trim())));
  const { headed, bareNames } = headerMode(lines);
  const from = preambleEnd(lines, headed, bareNames);
  header.date ??= titleDate(lines.slice(0, from));
  let next: { speaker: string; at: number | null } | null = null;
  for (const raw of lines.slice(from)) {
    let line = raw.trim();
    if (!line || boilerplate(line)) continue;
    const header = headed ? headerOf(line, bareNames) : null;
    if (header) {
      next = header;
      continue;
    }
    if (next) {
      out.push({ speaker: next.speaker, text: line, start_ms: next.at, end_ms: null });
      next = null;
      continue;
    }
    const cue = cueTimingOf(line);
    if (cue && !cue.said) {
      timed = cue.start;
      continue;
    }
    let at: number | null = timed;
    timed = null;
    const lead = /^\[?\(?((?:\d{1,2}:)?\d{1,2}:\d{2}(?:[.,]\d{1,3})?)\)?\]?\s*[-–]?\s*/.exec(line);
    if (lead) {
      at = toMs(TIME.exec(lead[1])!);
      line = line.slice(lead[0].length);
      // "00:05:00" on a line of its own (Google Meet) times the turn after it.
      if (!line) {
        timed = at;
        continue;
      }
    }
    const { speaker: rawSpeaker, text: words } = splitSpeaker(line);
    let speaker = rawSpeaker;
    // "Name (00:01:02): words"
    const inner = speaker && SPOKEN_AT.exec(speaker);
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
  return { segments: out, header };
}

/**
 * Where the conversation starts: after what a tool writes above it (a title, attendees,
 * "Transcript", a disclaimer, a file name), when at most PREAMBLE unlabelled lines come before
 * the first turn and at least two labelled turns follow. Otherwise at the start.
 */
function preambleEnd(lines: string[], headed: boolean, bareNames: boolean): number {
  const labelled = (l: string) => (headed ? !!headerOf(l.trim(), bareNames) : !!splitSpeaker(l.trim()).speaker);
  let first = lines.findIndex(labelled);
  if (first <= 0) return 0;
  const before = lines.slice(0, first).filter((l) => l.trim());
  if (before.length > PREAMBLE || lines.slice(first).filter(labelled).length < 2) return 0;
  // A timing on the line above the first turn ("00:00:01.000 --> 00:00:04.000", "00:00:00") times it: kept.
  const timing = (l: string) => !!cueTimingOf(l.trim()) || TIME_LINE.test(l.trim());
  while (first > 0 && (!lines[first - 1].trim() || timing(lines[first - 1]))) first--;
  return first;
}

/** "School app research - Aisha Bello (2025-03-11 16:02 GMT) - Transcript": a meeting tool's title says when it was held. */
function titleDate(preamble: string[]): string | null {
  const title = preamble.find((l) => l.trim())?.trim() ?? '';
  const held = /\(([^()]*\b(?:19|20)\d{2}\b[^()]*)\)/.exec(title);
  return held ? dateOf(held[1]) : null;
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

export function parseTranscript(text: string): { format: TranscriptFormat; segments: ParsedSegment[]; estimatedTiming: boolean; header: TranscriptHeader } {
  if (!text.trim()) throw new TranscriptError('The transcript is empty');
  const format = detectFormat(text);
  const { segments: parsed, header } = format === 'text' ? parseText(text) : { segments: format === 'json' ? parseJson(text) : turnsOfCues(parseCues(text, format)), header: noHeader() };
  if (!parsed.length) throw new TranscriptError(`No transcript text found in this ${format.toUpperCase()} file`);
  if (parsed.length > 20_000) throw new TranscriptError('The transcript has more than 20,000 segments');
  const { segments, estimated } = fillTimes(parsed);
  return { format, segments, estimatedTiming: estimated, header };
}

/** A pause this long between two cues of one speaker is still their turn (captioning tools cut a turn into cues of a line or two). */
const SAME_TURN_GAP_MS = 3000;

/**
 * Captions cut what one person says into cues ("Gerrit van Dijk: …" three times running): consecutive cues of the same named
 * speaker, close in time, are one turn, so a sentence cut across two cues is read whole.
 */
function turnsOfCues(cues: ParsedSegment[]): ParsedSegment[] {
  const out: ParsedSegment[] = [];
  for (const cue of cues) {
    const last = out[out.length - 1];
    const close = last?.end_ms != null && cue.start_ms != null && cue.start_ms - last.end_ms <= SAME_TURN_GAP_MS;
    if (last && cue.speaker && last.speaker === cue.speaker && close) {
      out[out.length - 1] = { ...last, text: `${last.text} ${cue.text}`, end_ms: cue.end_ms ?? last.end_ms };
    } else out.push(cue);
  }
  return out;
}

const INTERVIEWER = /^(interviewer|researcher|moderator|host|facilitator|conductor|assistant|agent|q|question|me|us)\b/i;
const PARTICIPANT_LABELS = 'participant|respondent|customer|user|interviewee|guest|a|answer';
const PARTICIPANT = new RegExp(`^(${PARTICIPANT_LABELS})\\b`, 'i');
/** "Participant", "A", "Speaker 2": a label of the role, not the person's name. */
export const ROLE_LABEL = new RegExp(`^(?:${PARTICIPANT_LABELS}|speaker\\s*\\d*|unknown)$`, 'i');

/**
 * Which speaker is the interviewer: a name that says so, else whoever asks the most
 * questions. Everyone else is a participant; without speakers, everything is.
 */
export function assignRoles(segments: ParsedSegment[], header?: TranscriptHeader): Array<'participant' | 'interviewer' | 'unknown'> {
  const speakers = [...new Set(segments.map((s) => s.speaker).filter((s): s is string => !!s))];
  // The header's "Interviewer: Sam" says who "Sam:" is, by full or first name.
  const isHeaderInterviewer = (s: string) => !!header?.interviewer && (s === header.interviewer || s === header.interviewer.split(' ')[0]);
  let interviewers = new Set(speakers.filter((s) => INTERVIEWER.test(s) || isHeaderInterviewer(s)));
  if (!interviewers.size && speakers.length >= 2 && !speakers.some((s) => PARTICIPANT.test(s))) {
    const counts = new Map<string, { turns: number; questions: number }>();
    for (const s of segments) {
      if (!s.speaker) continue;
      const c = counts.get(s.speaker) ?? { turns: 0, questions: 0 };
      c.turns++;
      if (s.text.trim().endsWith('?')) c.questions++;
      counts.set(s.speaker, c);
    }
    const rate = new Map([...counts].map(([name, c]) => [name, c.questions / c.turns]));
    const ranked = [...speakers].sort((a, b) => rate.get(b)! - rate.get(a)!);
    if (rate.get(ranked[0])! > rate.get(ranked[1])!) interviewers = new Set([ranked[0]]);
  } else if (!interviewers.size && speakers.some((s) => PARTICIPANT.test(s))) {
    interviewers = new Set(speakers.filter((s) => !PARTICIPANT.test(s)));
  }
  return segments.map((s) => (!s.speaker ? (speakers.length ? 'unknown' : 'participant') : interviewers.has(s.speaker) ? 'interviewer' : 'participant'));
}
