import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './helpers/service.ts';
import { importedText, ownerWithProject, postForm } from './helpers/fixtures.ts';
import { form } from './helpers/media.ts';

/**
 * Input shaped to cost more the longer it is (runs of one character, thousands of speakers,
 * thousands of goals) or to trip the parsers, sent as any project member could. Every one is
 * answered, and answered in the way a user can act on. The sizes are chosen so that work
 * growing with the square of the input would run for minutes and time the test out; none
 * of them takes long when the work grows with the input.
 */
let svc: TestService;
let o: Awaited<ReturnType<typeof ownerWithProject>>;

beforeAll(async () => {
  svc = await startTestService({ env: { WORKER: 'on' } });
  o = await ownerWithProject(svc, 'input-cost@example.com');
});
afterAll(() => svc?.stop());

const upload = (name: string, body: Buffer | string) =>
  postForm(svc, o.token, `${o.P}/sessions/import-transcript`, form({ transcript: { buffer: Buffer.isBuffer(body) ? body : Buffer.from(body), filename: name, type: 'text/plain' } }));

describe('transcripts shaped to be slow to read', () => {
  it('imports runs of blank lines, spaces and "<" at once', async () => {
    const cue = 'WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n';
    for (const [name, text] of [
      ['newlines.txt', `1${'\n'.repeat(400_000)}x`],
      ['spaced.txt', `1${' \n'.repeat(200_000)}x`],
      ['voice.vtt', `${cue}<v${' '.repeat(400_000)}x`],
      ['markup.vtt', `${cue}${'<'.repeat(400_000)}`],
      ['times.vtt', `${cue}Ann: hi\n\n${'0:00'.repeat(100_000)}`],
    ]) {
      const res = await upload(name, text);
      expect(res.status, name).toBe(201);
    }
  });

  it('tells 20,000 speakers apart without comparing each with all the others', async () => {
    const lines = Array.from({ length: 20_000 }, (_, i) => `Sp${i.toString(36)}: hi${i % 2 ? '?' : ''}`);
    const res = await upload('crowd.txt', lines.join('\n'));
    expect(res.status).toBe(201);
  });

  it('processes a turn of one letter said 2,000 times, and a turn padded with pages of spaces, with the evidence around them', async () => {
    const id = await importedText(svc, o, 'stutter.txt', [
      'Interviewer: What happened?',
      'Dana: I kept clicking the export button and nothing happened, it was so frustrating.',
      'Interviewer: And then?',
      `Dana: ${'a '.repeat(2000)}`,
      'Interviewer: Anything else?',
      `Dana: I was trying to pay the invoice and the page froze.${' '.repeat(20_000)}um it failed again.`,
    ].join('\n'));
    const quotes = ((await o.call('GET', `/signals?session_id=${id}`)).body.signals as Array<{ quote: string }>).map((s) => s.quote);
    expect(quotes.some((q) => q.includes('nothing happened'))).toBe(true);
  });
});

describe('transcripts as tools write them', () => {
  it('reads WebVTT and SRT cues that lack their header, with their speakers and times', async () => {
    const vtt = await importedText(svc, o, 'noheader.vtt', '00:00:05.000 --> 00:00:08.000\n<v Interviewer>How did the checkout go?\n\n00:00:12.000 --> 00:00:15.000\n<v Tom>It was terrible, the card was declined twice.\n');
    const segments = (await o.call('GET', `/sessions/${vtt}/transcript`)).body.segments;
    expect(segments.map((s: any) => [s.speaker, s.role, s.start_ms, s.text])).toEqual([
      ['Interviewer', 'interviewer', 5000, 'How did the checkout go?'],
      ['Tom', 'participant', 12000, 'It was terrible, the card was declined twice.'],
    ]);
    const srt = await importedText(svc, o, 'noheader.srt', '1\n00:00:05,000 --> 00:00:08,000\nAnn: How did it go?\n\n2\n00:00:12,000 --> 00:00:15,000\nTom: The export failed.\n');
    expect((await o.call('GET', `/sessions/${srt}`)).body.session.transcript_format).toBe('srt');
  });

  it('reads a conversation pasted without its line breaks as a turn a speaker, and leaves a label inside a sentence alone', async () => {
    const id = await importedText(svc, o, 'one-line.txt', 'Maya: How did checkout go? Tom: I ended up paying with PayPal instead. Maya: Why? Tom: The card form kept failing and I almost closed the tab. It said Error: declined. Maya: Anything else? Tom: No.');
    const segments = (await o.call('GET', `/sessions/${id}/transcript`)).body.segments;
    expect(segments.map((s: any) => `${s.role} ${s.speaker}: ${s.text}`)).toEqual([
      'interviewer Maya: How did checkout go?',
      'participant Tom: I ended up paying with PayPal instead.',
      'interviewer Maya: Why?',
      'participant Tom: The card form kept failing and I almost closed the tab. It said Error: declined.',
      'interviewer Maya: Anything else?',
      'participant Tom: No.',
    ]);
    const quotes = ((await o.call('GET', `/signals?session_id=${id}`)).body.signals as Array<{ quote: string; headline: string }>);
    for (const q of quotes) expect(`${q.quote} ${q.headline}`).not.toMatch(/\b(?:Tom|Maya):/);
  });

  it('reads cue timings as tools write them: no fraction, no spaces, words after the times, a NOTE with an arrow, timings without blank lines', async () => {
    const read = async (name: string, text: string) => {
      const id = await importedText(svc, o, name, text);
      return ((await o.call('GET', `/sessions/${id}/transcript`)).body.segments as any[]).map((x) => `${x.start_ms} ${x.speaker}: ${x.text}`);
    };
    expect(await read('nofrac.vtt', 'WEBVTT\n\n00:00:01 --> 00:00:04\n<v Ann>How did it go?\n\n00:00:05 --> 00:00:08\n<v Tom>The export failed.')).toEqual(['1000 Ann: How did it go?', '5000 Tom: The export failed.']);
    expect(await read('tight.srt', '1\n00:00:01,000-->00:00:04,000\nAnn: How did it go?\n\n2\n00:00:05,000-->00:00:08,000\nTom: The export failed.\n')).toEqual(['1000 Ann: How did it go?', '5000 Tom: The export failed.']);
    expect(await read('note.vtt', 'WEBVTT\n\nNOTE trimmed 00:05->00:10 by hand\n\n00:00:05.000 --> 00:00:08.000 align:start\n<v Ann>How did it go?\n\n00:00:09.000 --> 00:00:12.000 Tom: The export failed.')).toEqual(['5000 Ann: How did it go?', '9000 Tom: The export failed.']);
    expect(await read('run-on.txt', '00:00:01.000 --> 00:00:04.000\nMaya: How did it go?\n00:00:04.000 --> 00:00:08.000\nTom: The export failed.')).toEqual(['1000 Maya: How did it go?', '4000 Tom: The export failed.']);
    expect(await read('error.txt', 'Maya: What happened?\nTom: I clicked pay. Error: card declined. I tried again. Error: card declined. So I gave up.')).toEqual([
      '0 Maya: What happened?', expect.stringMatching(/^\d+ Tom: I clicked pay\. Error: card declined\. I tried again\. Error: card declined\. So I gave up\.$/),
    ]);
  });

  it('names a cue whose timing cannot be read, rather than losing what was said under it', async () => {
    for (const timing of ['00:00:12.000 -> 00:00:15.000', 'banana --> 00:00:30.000']) {
      const res = await upload('broken.vtt', `WEBVTT\n\n00:00:05.000 --> 00:00:08.000\n<v Ann>Hi?\n\n${timing}\n<v Tom>I wish I could see shipping costs first.\n`);
      expect(res.status, timing).toBe(400);
      expect(res.body, timing).toMatchObject({ code: 'transcript_unreadable', error: expect.stringContaining(`cue 2 ("${timing}") has no readable timing`) });
    }
  });

  it('reads a UTF-16 export with its byte-order mark', async () => {
    const text = 'Interviewer: How was it?\r\nMaría: The export failed and I had to copy everything by hand.\r\n';
    const res = await upload('windows.txt', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const segments = (await o.call('GET', `/sessions/${res.body.session.id}/transcript`)).body.segments;
    expect(segments.map((s: any) => s.speaker)).toEqual(['Interviewer', 'María']);
  });

  it('refuses JSON segments with NUL, lone surrogates, times out of range or ending before they start, naming the segment', async () => {
    for (const [json, error] of [
      ['[{"speaker":"Ann","text":"hello \\u0000 world","start":0,"end":1}]', 'segments[0].text must not contain NUL'],
      ['[{"text":"fine"},{"speaker":"Ann\\ud800","text":"hello world"}]', 'segments[1].speaker must not contain NUL characters or unpaired surrogates'],
      ['[{"text":"hello world","start":1e20,"end":1e21}]', 'segments[0].start must be a time from 0 to 24 hours'],
      ['[{"text":"hello world","start_ms":-5000,"end_ms":-1000}]', 'segments[0].start_ms must be a time'],
      ['[{"text":"hello world","start":5,"end":2}]', 'segments[0] ends before it starts'],
    ]) {
      const res = await upload('segments.json', json);
      expect(res.status, json).toBe(400);
      expect(res.body, json).toMatchObject({ code: 'transcript_unreadable', error: expect.stringContaining(error) });
    }
  });
});

describe('scripts shaped to be slow to review', () => {
  it('refuses more segments or goals than a study may have before reading any, and reviews the largest allowed script', async () => {
    const segments = (n: number, instruction?: string) => Array.from({ length: n }, (_, i) => ({ id: `s${i}`, mode: 'talk', title: `Part ${i}`, ...(instruction ? { instruction } : {}) }));
    const goals = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `g${i}`, description: `Goal ${i}` }));
    const big = await o.call('POST', '/studies/validate-script', { script: { version: 2, goals: goals(3000), segments: segments(3000) } });
    expect(big.status).toBe(200);
    expect(big.body).toMatchObject({ valid: false, participant_questions: [] });
    expect(big.body.errors.map((e: any) => e.code)).toEqual(['too_many_segments', 'too_many_goals']);
    const padded = await o.call('POST', '/studies/validate-script', { script: { version: 2, goals: goals(50), segments: segments(200, `Ask${' '.repeat(3980)}what happened?`) } });
    expect(padded.status).toBe(200);
    expect(padded.body.participant_questions).toHaveLength(200);
  });
});
