import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './helpers/service.ts';
import { ownerWithProject, postForm, settled } from './helpers/fixtures.ts';
import { fakeOpenAI, type FakeOpenAI } from './helpers/fake-openai.ts';
import { execFileSync } from 'node:child_process';
import { conversation, ffmpeg, form, mediaDir, speech, timedConversation, video } from './helpers/media.ts';
import { CaseFile } from '../tools/evidence/record.ts';
import { transcribeHere } from '../tools/interviews/speech-model.ts';

let svc: TestService;
let o: Awaited<ReturnType<typeof ownerWithProject>>;
let ai: FakeOpenAI;
const KEY = 'sk-test-pipeline-key-0001';

beforeAll(async () => {
  svc = await startTestService({ env: { WORKER: 'on', OUTBOUND_ALLOW_LOOPBACK: 'true' } });
  o = await ownerWithProject(svc, 'pipeline@example.com');
  ai = await fakeOpenAI(KEY);
});
afterAll(async () => {
  await svc?.stop();
  await ai?.close();
});

const upload = (parts: Parameters<typeof form>[0]) => postForm(svc, o.token, `${o.P}/sessions/upload-video`, form(parts));

describe('media upload and the processing pipeline', () => {
  it('transcribes speech on this machine when no model is configured, and finds the evidence in it', async () => {
    const wav = await speech("I couldn't find the export button anywhere. It was really frustrating. So in the end I copied everything into a spreadsheet by hand.", 'speech-local', 'mp3');
    const res = await upload({ audio: { file: wav, filename: 'call.mp3', type: 'audio/mpeg' }, participant_name: 'Ana' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const id = res.body.session.id;
    const done = await settled(o.call, id);
    expect(done).toMatchObject({ status: 'processed', error_code: null, transcription: { total: 1, completed: 1 }, warnings: [] });
    expect(ai.calls).toHaveLength(0);
    const { segments, format } = (await o.call('GET', `/sessions/${id}/transcript`)).body;
    expect(format).toBe('speech:built_in');
    expect((await o.call('GET', `/sessions/${id}`)).body.session.transcript_format).toBe('speech:built_in');
    const said = segments.map((s: any) => s.text).join(' ');
    // espeak's voice is robotic; the model still hears most of it.
    expect(said).toMatch(/find the export/i);
    expect(said).toMatch(/really frustrating/i);
    expect(said).toMatch(/copied everything into a spreadsheet/i);
    expect(segments[0].start_ms).toBeGreaterThanOrEqual(0);
    for (const [i, s] of segments.entries()) {
      expect(s.end_ms).toBeGreaterThan(s.start_ms);
      if (i > 0) expect(s.start_ms).toBeGreaterThanOrEqual(segments[i - 1].end_ms);
    }
    const signals = (await o.call('GET', `/signals?session_id=${id}`)).body.signals;
    expect(signals.length).toBeGreaterThan(0);
    for (const sig of signals) expect(said.toLowerCase()).toContain(sig.quote.toLowerCase().replace(/[.!?]$/, ''));
  });

  it('tells the interviewer from the participant by voice in a recorded interview, and keeps the interviewer\'s words out of the evidence', async () => {
    const [asks, answers] = ['en-us', 'en-us+f3'];
    const mp3 = await conversation('two-voices', [
      [asks, 'Thanks for joining. Can you tell me about the last time you exported a report?'],
      [answers, 'Last Monday I exported the monthly report and it took ages, about ten minutes of spinning.'],
      [asks, 'What was frustrating about that, if anything?'],
      [answers, 'Honestly I just hate waiting. I ended up doing it at night.'],
      [asks, 'And what would make it easier for you?'],
      [answers, 'I wish it just emailed the report to my manager every Friday.'],
    ]);
    const res = await upload({ audio: { file: mp3, filename: 'interview.mp3', type: 'audio/mpeg' } });
    const id = res.body.session.id;
    expect(await settled(o.call, id)).toMatchObject({ status: 'processed', warnings: [] });
    const segments = (await o.call('GET', `/sessions/${id}/transcript`)).body.segments as Array<{ role: string; text: string }>;
    expect(segments).toHaveLength(6);
    expect(segments.map((s) => s.role)).toEqual(['interviewer', 'participant', 'interviewer', 'participant', 'interviewer', 'participant']);
    const signals = (await o.call('GET', `/signals?session_id=${id}`)).body.signals as Array<{ quote: string }>;
    expect(signals.length).toBeGreaterThan(0);
    const asked = segments.filter((s) => s.role === 'interviewer').map((s) => s.text.toLowerCase());
    for (const sig of signals) expect(asked.some((q) => q.includes(sig.quote.toLowerCase().replace(/[.?!]$/, '')))).toBe(false);

    // One voice thinking aloud, questions and all: nobody is taken for an interviewer.
    const alone = await conversation('one-voice', [
      [answers, 'Where is the export button?'],
      [answers, 'Oh, there it is, under the three dots. That is a strange place for it.'],
      [answers, 'Why is it greyed out now?'],
      [answers, 'I have no idea what it wants from me.'],
    ]);
    const single = (await upload({ audio: { file: alone, filename: 'think-aloud.mp3', type: 'audio/mpeg' } })).body.session.id;
    await settled(o.call, single);
    const heard = (await o.call('GET', `/sessions/${single}/transcript`)).body.segments as Array<{ role: string }>;
    expect(heard.length).toBeGreaterThanOrEqual(3);
    expect(heard.every((s) => s.role === 'unknown')).toBe(true);
  });

  it('tells the two voices apart in what a transcription service heard, too', async () => {
    const { file, segments: said } = await timedConversation('two-voices-service', [
      ['en-us+f3', 'So, when did you last book a room for your team?'],
      ['en-us', 'Last week, and the calendar showed the room as free when it was not.'],
      ['en-us+f3', 'What did you do then?'],
      ['en-us', 'I walked around the office until I found an empty one.'],
    ]);
    await o.call('PATCH', '/settings', { openai_api_key: KEY, openai_base_url: ai.url });
    const [segmentsBefore, evidenceBefore] = [ai.transcriptSegments, ai.evidence];
    try {
      ai.transcriptSegments = said;
      ai.evidence = () => [];
      const id = (await upload({ audio: { file, filename: 'service.mp3', type: 'audio/mpeg' } })).body.session.id;
      expect((await settled(o.call, id)).status).toBe('processed');
      const { segments, format } = (await o.call('GET', `/sessions/${id}/transcript`)).body as { segments: Array<{ role: string; text: string }>; format: string };
      expect(segments.map((s) => [s.role, s.text])).toEqual(said.map((s, i) => [i % 2 ? 'participant' : 'interviewer', s.text]));
      expect(format).toBe('speech:service');
    } finally {
      [ai.transcriptSegments, ai.evidence] = [segmentsBefore, evidenceBefore];
      await o.call('PATCH', '/settings', { openai_api_key: null, openai_base_url: null });
    }
  });

  it('hears nobody in a recording of a tone or of noise, and invents nothing', async () => {
    const noise = `${mediaDir}/noise.wav`;
    execFileSync(ffmpeg, ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'anoisesrc=d=4:c=pink:a=0.4', noise]);
    for (const file of [video('tone-only', 3), noise]) {
      const res = await upload({ media: { file, type: file.endsWith('.mp4') ? 'video/mp4' : 'audio/wav' } });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      const id = res.body.session.id;
      const done = await settled(o.call, id);
      expect(done, JSON.stringify(done)).toMatchObject({ status: 'processed', evidence_count: 0, warnings: [{ step: 'transcribing', code: 'no_speech_heard', message: expect.stringContaining('No speech') }] });
      expect((await o.call('GET', `/sessions/${id}/transcript`)).body.segments).toEqual([]);
    }
  });

  it('leaves out speech the built-in model cannot make out (another language) instead of guessing, and says so', async () => {
    const spanish = await speech('La semana pasada intenté pagar a nuestro proveedor y el botón de confirmar estaba desactivado. No sabía por qué, así que llamé al soporte.', 'spanish', 'mp3', 'es');
    const id = (await upload({ audio: { file: spanish, filename: 'entrevista.mp3', type: 'audio/mpeg' } })).body.session.id;
    const done = await settled(o.call, id);
    expect(done).toMatchObject({ status: 'processed', evidence_count: 0, warnings: [{ step: 'transcribing', code: 'speech_unclear', message: expect.stringMatching(/could not make out 100 %.*English only/), action: expect.stringContaining('interview_language') }] });
    // Where it was is marked, so a researcher knows where to listen; the mark is no one's words.
    expect((await o.call('GET', `/sessions/${id}/transcript`)).body.segments.map((x: { text: string; role: string }) => [x.text, x.role])).toEqual([['[unclear speech]', 'unknown']]);

    // English and another language in one recording: the English is kept, the rest left out and said.
    const mixed = await conversation('mixed-languages', [
      ['en-us', 'Honestly, the mobile app is the part I use most, because I am on site all day.'],
      ['fr', "La semaine dernière, j'ai essayé de payer notre fournisseur et le bouton était grisé."],
    ]);
    const both = (await upload({ audio: { file: mixed, filename: 'mixed.mp3', type: 'audio/mpeg' } })).body.session.id;
    expect((await settled(o.call, both)).warnings).toEqual([expect.objectContaining({ code: 'speech_unclear' })]);
    const kept = (await o.call('GET', `/sessions/${both}/transcript`)).body.segments as Array<{ text: string; start_ms: number }>;
    expect(kept.map((k) => k.text)).toEqual([expect.stringMatching(/mobile app is .* use most/i), '[unclear speech]']);
    expect(kept[1].start_ms).toBeGreaterThan(kept[0].start_ms);
    // Heard as uploaded, not from the 32 kbit/s copy kept for playback (from which the built-in model lost a fifth of a walkthrough's speech).
    expect(kept.slice(0, 1).map((k) => k.text)).toEqual((await transcribeHere(ffmpeg, mixed, 0, mediaDir)).texts.map((t) => t.text));

    // With no service, the built-in model would hear it the same way again: refused, saying what is missing.
    expect(await o.call('POST', `/sessions/${id}/retry-transcription`)).toMatchObject({ status: 422, body: { code: 'no_transcription_service', action: expect.stringContaining('openai_api_key') } });
    // As the warning says: a service and the language set, the same recording is transcribed again in place.
    const manual = await o.call('POST', `/sessions/${id}/signals`, { signal_type: 'struggling_moment', quote: 'El botón de confirmar estaba desactivado.' });
    expect(manual.status).toBe(201);
    await o.call('PATCH', '/settings', { openai_api_key: KEY, openai_base_url: ai.url, interview_language: 'es' });
    const [segmentsBefore, evidenceBefore] = [ai.transcriptSegments, ai.evidence];
    try {
      ai.transcriptSegments = [{ start: 0, end: 6, text: 'La semana pasada intenté pagar a nuestro proveedor y el botón de confirmar estaba desactivado.' }];
      ai.evidence = () => [];
      const again = await o.call('POST', `/sessions/${id}/retry-transcription`);
      expect(again.status, JSON.stringify(again.body)).toBe(200);
      expect(again.body).toMatchObject({ status: 'pending' });
      expect(await settled(o.call, id)).toMatchObject({ status: 'processed', warnings: [], evidence_count: 1 });
      const heard = (await o.call('GET', `/sessions/${id}/transcript`)).body;
      expect(heard.format).toBe('speech:service');
      expect(heard.segments.map((t: { text: string }) => t.text)).toEqual([expect.stringContaining('botón de confirmar')]);
      expect((await o.call('GET', `/signals?session_id=${id}`)).body.signals.map((c: { quote: string }) => c.quote)).toEqual(['El botón de confirmar estaba desactivado.']);
    } finally {
      [ai.transcriptSegments, ai.evidence] = [segmentsBefore, evidenceBefore];
      await o.call('PATCH', '/settings', { openai_api_key: null, openai_base_url: null, interview_language: null });
    }

    // A transcript that was imported has no recording to transcribe again.
    const imported = new FormData();
    imported.set('transcript', new Blob(['Interviewer: How was it?\nParticipant: The export took ages.'], { type: 'text/plain' }), 't.txt');
    const typed = (await postForm(svc, o.token, `${o.P}/sessions/import-transcript`, imported)).body.session.id;
    await settled(o.call, typed);
    expect(await o.call('POST', `/sessions/${typed}/retry-transcription`)).toMatchObject({ status: 422, body: { code: 'no_recording', action: expect.stringContaining('reprocess') } });
  });

  it('fails transcription clearly when the built-in model cannot read the language, then succeeds after a key is configured and the interview is retried', async () => {
    await o.call('PATCH', '/settings', { interview_language: 'pt-BR' });
    const wav = await speech("I couldn't find the export button anywhere. It was really frustrating.", 'speech-1');
    const res = await upload({ audio: { file: wav, filename: 'call.wav', type: 'audio/wav' }, participant_name: 'Kim' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ queued: true, session: { source: 'upload', processing_status: 'pending', participant_name: 'Kim' } });
    const id = res.body.session.id;

    const failed = await settled(o.call, id);
    expect(failed).toMatchObject({ status: 'failed', current_step: 'transcribing', error_code: 'transcription_unconfigured', retryable: false, action: expect.stringContaining('openai_api_key') });
    expect(failed.error_message).toMatch(/English only.*pt-BR/);
    // Retrying cannot help yet, and the action does not say to.
    expect(failed.action).not.toMatch(/retry/i);
    const artifacts = (await o.call('GET', `/sessions/${id}/artifacts`)).body.artifacts;
    expect(artifacts.map((a: any) => a.name).sort()).toEqual(['audio', 'source-audio']);
    expect((await o.call('GET', `/sessions/${id}`)).body.session.duration_seconds).toBeGreaterThan(1);

    // Setting the interviews' language to English would let the built-in model serve: then retrying can help.
    await o.call('PATCH', '/settings', { interview_language: 'en-GB' });
    expect((await o.call('GET', `/sessions/${id}/processing`)).body).toMatchObject({ status: 'failed', retryable: true, action: expect.stringContaining('retry-transcription') });
    await o.call('PATCH', '/settings', { interview_language: 'pt-BR' });
    expect((await o.call('GET', `/sessions/${id}/processing`)).body).toMatchObject({ retryable: false });

    await o.call('PATCH', '/settings', { openai_api_key: KEY, openai_base_url: ai.url });
    // Once transcription is configured, the same failure is retryable and says how.
    const ready = (await o.call('GET', `/sessions/${id}/processing`)).body;
    expect(ready).toMatchObject({ status: 'failed', error_code: 'transcription_unconfigured', retryable: true, action: expect.stringContaining('retry-transcription') });
    expect((await o.call('POST', '/sessions/processing-status', { session_ids: [id] })).body.statuses).toEqual([ready]);
    const callsBefore = ai.calls.filter((c) => c.path === '/audio/transcriptions').length;
    const retry = await o.call('POST', `/sessions/${id}/retry-transcription`);
    expect(retry.status).toBe(200);
    expect(retry.body.status).toBe('pending');
    const done = await settled(o.call, id);
    expect(done).toMatchObject({ status: 'processed', transcription: { total: 1, completed: 1 }, error_code: null });
    expect(ai.calls.filter((c) => c.path === '/audio/transcriptions')).toHaveLength(callsBefore + 1);
    const transcript = (await o.call('GET', `/sessions/${id}/transcript`)).body;
    expect(transcript.segments.map((s: any) => s.text)).toEqual(ai.transcriptSegments.map((s) => s.text));
    expect(transcript.segments[1].start_ms).toBe(3500);
    // The project key was used and its health recorded.
    const health = (await o.call('GET', '/settings/key-health')).body.keys[0];
    expect(health.last_success_at).not.toBeNull();
    // Transcribed again on request, once at a time.
    expect((await o.call('POST', `/sessions/${id}/retry-transcription`)).status).toBe(200);
    expect(await o.call('POST', `/sessions/${id}/retry-transcription`)).toMatchObject({ status: 409, body: { code: 'interview_processing' } });
    expect(await settled(o.call, id)).toMatchObject({ status: 'processed' });
    expect(ai.calls.filter((c) => c.path === '/audio/transcriptions')).toHaveLength(callsBefore + 2);
    await o.call('PATCH', '/settings', { openai_api_key: null, openai_base_url: null, interview_language: null });
  });

  it('derives audio, duration and frames from a video, with signed expiring download links', async () => {
    await o.call('PATCH', '/settings', { openai_api_key: KEY, openai_base_url: ai.url });
    ai.evidence = () => [];
    const mp4 = video('screen-1', 3);
    const res = await upload({ video: { file: mp4, filename: 'screen.mp4', type: 'video/mp4' } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const id = res.body.session.id;
    const done = await settled(o.call, id);
    expect(done.status).toBe('processed');
    const artifacts = (await o.call('GET', `/sessions/${id}/artifacts`)).body.artifacts;
    expect(artifacts.filter((a: any) => !['frame', 'screen_text'].includes(a.kind)).map((a: any) => a.name).sort()).toEqual(['audio', 'source-video']);
    // Representative frames: the first one, then scene changes in time order (test/ocr.test.ts checks where they fall).
    const frames = artifacts.filter((a: any) => a.kind === 'frame').sort((a: any, b: any) => a.meta.timestamp_ms - b.meta.timestamp_ms);
    expect(frames.map((f: any) => f.name)).toEqual(frames.map((_: unknown, i: number) => `frame-${i + 1}`));
    // testsrc's picture moves from its first frame on: the first screen read is the first that holds still for a moment.
    expect(frames[0].meta).toEqual({ timestamp_ms: expect.any(Number), until_ms: expect.any(Number) });
    expect(frames[0].meta.until_ms).toBeGreaterThan(frames[0].meta.timestamp_ms);
    expect(frames[0].meta.timestamp_ms).toBeLessThan(1000);
    for (const a of artifacts) expect(a).toMatchObject({ available: true, size: expect.any(Number), download_url: expect.stringContaining('sig='), expires_at: expect.any(String) });
    const frame = frames[0];
    expect(frame.mime_type).toBe('image/jpeg');
    const img = await fetch(frame.download_url);
    expect(img.status).toBe(200);
    expect(img.headers.get('content-type')).toBe('image/jpeg');
    expect(Buffer.from(await img.arrayBuffer()).subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    const one = (await o.call('GET', `/sessions/${id}/artifact/audio`)).body;
    expect(one).toMatchObject({ name: 'audio', mime_type: 'audio/mpeg' });
    const forged = one.url.replace(/sig=[^&]+/, 'sig=AAAA');
    expect((await fetch(forged)).status).toBe(403);
    const expired = new URL(one.url);
    expired.searchParams.set('expires', String(Math.floor(Date.now() / 1000) - 10));
    expect((await fetch(expired)).status).toBe(403);
    expect((await o.call('GET', `/sessions/${id}/artifact/nothing`)).status).toBe(404);

    // Deleting the interview deletes what it stored.
    const keys = (await svc.services.db.pool.query('SELECT storage_key FROM interview_artifacts WHERE interview_id = $1', [id])).rows.map((a) => a.storage_key);
    const del = await o.call('DELETE', `/sessions/${id}`);
    expect(del.body.objectsDeleted).toBe(keys.length);
    for (const k of keys) expect(await svc.services.storage.head(k)).toBeNull();
  });

  it('checks files by content and size, and keeps nothing from a refused upload', async () => {
    const countObjects = () => {
      const dir = `${svc.dataDir}/storage/objects`;
      if (!fs.existsSync(dir)) return 0;
      return (fs.readdirSync(dir, { recursive: true }) as string[]).filter((f) => !f.endsWith('.meta') && fs.statSync(`${dir}/${f}`).isFile()).length;
    };
    const before = countObjects();
    const sessions = (await o.call('GET', '/sessions')).body.total;
    const fakeMp4 = await upload({ video: { buffer: Buffer.from('this is just text pretending to be a video\n'.repeat(20)), filename: 'clip.mp4', type: 'video/mp4' } });
    expect(fakeMp4.status).toBe(415);
    expect(fakeMp4.body.error).toMatch(/video/);
    const wav = await speech('hello there', 'speech-2');
    const audioAsVideo = await upload({ video: { file: wav, filename: 'clip.mp4', type: 'video/mp4' } });
    expect(audioAsVideo.status).toBe(415);
    const header = fs.readFileSync(video('head', 1)).subarray(0, 64);
    const huge = Buffer.concat([header, Buffer.alloc(101 * 1024 * 1024 - header.length)]);
    const tooBig = await upload({ video: { buffer: huge, filename: 'big.mp4', type: 'video/mp4' } });
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.error).toMatch(/100 MiB/);
    const bigAudio = await upload({ audio: { buffer: Buffer.concat([fs.readFileSync(wav).subarray(0, 44), Buffer.alloc(26 * 1024 * 1024)]), filename: 'a.wav' } });
    expect(bigAudio.status).toBe(413);
    const both = await upload({ media: { file: wav, filename: 'a.wav' }, audio: { file: wav, filename: 'b.wav' } });
    expect(both.status).toBe(400);
    const none = await upload({ participant_name: 'nobody' });
    expect(none.status).toBe(400);
    expect(countObjects()).toBe(before);
    expect((await o.call('GET', '/sessions')).body.total).toBe(sessions);
  });

  it('accepts every SPEC audio format by content', async () => {
    for (const fmt of ['mp3', 'ogg', 'flac'] as const) {
      const file = await speech('Testing one two three.', `fmt-${fmt}`, fmt);
      const res = await upload({ media: { file, filename: `x.${fmt}`, type: 'application/octet-stream' } });
      expect(res.status, fmt).toBe(201);
    }
  });

  it('uses the project model for extraction: verbatim quotes stored, paraphrases marked uncertain, inventions dropped', async () => {
    ai.evidence = (transcript: string) => {
      const segment = /^\[(\S+)\] participant/m.exec(transcript)?.[1] ?? null;
      return [
        { signal_type: 'struggling_moment', target_surface: 'product_under_test', quote: 'I had to type egg instead.', segment_id: segment, headline: 'Search misses plurals', claim: 'Plural search terms return nothing', reconstruction: 'While adding items', observed_facts: ['Typed eggs, got nothing'], evidence_grade: 'direct', confidence: 0.9, intensity: 0.5 },
        { signal_type: 'emotional_response', target_surface: 'product_under_test', quote: 'Stressed honestly because I had nothing for the kids lunches on Monday', segment_id: null, headline: 'Stress', claim: 'Stressed about lunches', reconstruction: 'Late slots', observed_facts: ['Stressed'], evidence_grade: 'direct', confidence: 0.7 },
        { signal_type: 'firing_moment', target_surface: 'product_under_test', quote: 'I am going to cancel my account tomorrow.', segment_id: null, headline: 'Invented', claim: 'Never said', reconstruction: 'x', observed_facts: ['x'], evidence_grade: 'direct', confidence: 0.9 },
      ];
    };
    const res = await postForm(svc, o.token, `${o.P}/sessions/import-transcript`, form({ transcript: { file: new URL('./fixtures/transcripts/groceries.txt', import.meta.url).pathname, filename: 'g.txt' } }));
    const id = res.body.session.id;
    expect((await settled(o.call, id)).status).toBe('processed');
    const signals = (await o.call('GET', `/signals?session_id=${id}`)).body.signals;
    expect(signals.map((s: any) => s.signal_type).sort()).toEqual(['emotional_response', 'struggling_moment']);
    const exact = signals.find((s: any) => s.signal_type === 'struggling_moment');
    expect(exact).toMatchObject({ quote: 'I had to type egg instead.', transcript_uncertain: false, source: 'pipeline:llm', headline: 'Search misses plurals' });
    const fuzzy = signals.find((s: any) => s.signal_type === 'emotional_response');
    expect(fuzzy).toMatchObject({ transcript_uncertain: true, evidence_grade: 'weak', quote: "Stressed, honestly, because I had nothing for the kids' lunches on Monday." });
    expect(fuzzy.transcript_uncertainty_note).toMatch(/not found verbatim/);
    const card = (await o.call('GET', `/signals/${exact.id}`)).body.signal;
    expect(CaseFile.safeParse(card.case_file).success).toBe(true);
    expect(card.case_file.evidence_card.evidence).toMatchObject({ claim: 'Plural search terms return nothing', observed_facts: ['Typed eggs, got nothing'] });

    // Reprocess keeps manual evidence unless asked to replace it.
    await svc.services.db.pool.query(
      `INSERT INTO signals (id, project_id, interview_id, signal_type, target_surface, confidence, quote, source, manual)
       VALUES ('sig_manual_1', $1, $2, 'workaround', 'product_under_test', 1, 'I had to type egg instead.', 'manual', true)`,
      [o.project.ref, id],
    );
    ai.evidence = () => [];
    await o.call('POST', `/sessions/${id}/reprocess`);
    await settled(o.call, id);
    expect((await o.call('GET', `/signals?session_id=${id}`)).body.signals.map((s: any) => s.id)).toEqual(['sig_manual_1']);
    await o.call('POST', `/sessions/${id}/reprocess?replace_manual_evidence=true`);
    expect((await settled(o.call, id)).evidence_count).toBe(0);

    // A provider outage is retried, and the step finally fails with the provider's error.
    ai.status = 401;
    await o.call('POST', `/sessions/${id}/reprocess`);
    expect(await settled(o.call, id)).toMatchObject({ status: 'failed', error_code: 'extraction_auth_failed', retryable: false });
    ai.status = 200;
    await o.call('PATCH', '/settings', { openai_api_key: null, openai_base_url: null });
  });

  it('keeps what researchers did with the cards when an interview is extracted again', async () => {
    await o.call('PATCH', '/settings', { openai_api_key: KEY, openai_base_url: ai.url });
    const card = (signal_type: string, quote: string) => ({ signal_type, target_surface: 'product_under_test', quote, segment_id: null, headline: quote.slice(0, 30), claim: quote, reconstruction: 'r', observed_facts: ['f'], evidence_grade: 'direct', confidence: 0.8 });
    const before = ai.evidence;
    try {
      ai.evidence = () => [
        card('struggling_moment', "All the evening slots were gone and the app didn't tell me until I'd filled the whole basket."),
        card('workaround', 'I switched to click and collect at the store near my office, which worked out in the end.'),
        card('desired_outcome', 'Show me the free slots before I start shopping, please.'),
        card('hiring_criteria', 'Their own-brand organic range.'),
        card('smooth_completion', 'I reorder from my last basket, that bit is brilliant because it takes seconds.'),
      ];
      const res = await postForm(svc, o.token, `${o.P}/sessions/import-transcript`, form({ transcript: { file: new URL('./fixtures/transcripts/groceries.txt', import.meta.url).pathname, filename: 'g.txt' } }));
      const id = res.body.session.id;
      await settled(o.call, id);
      const first = (await o.call('GET', `/signals?session_id=${id}&limit=50`)).body.signals as Array<{ id: string; signal_type: string; quote: string }>;
      const by = (type: string) => first.find((c) => c.signal_type === type)!.id;
      const [slots, collect, wish, range, reorder] = ['struggling_moment', 'workaround', 'desired_outcome', 'hiring_criteria', 'smooth_completion'].map(by);
      expect((await o.call('POST', `/signals/${slots}/review`, {})).status).toBe(200);
      expect((await o.call('POST', `/signals/${collect}/annotate`, { text: 'Ask ops about store pickup' })).status).toBe(200);
      expect((await o.call('POST', `/signals/${wish}/dismiss`, { reason: 'Said by the interviewer' })).status).toBe(200);
      const finding = (await o.call('POST', '/findings/from-evidence', { title: 'Slots run out unseen', evidence_refs: [slots, range] })).body.finding;

      // The model now tells the same moments a little differently, misses one a researcher kept, and finds a new one.
      ai.evidence = () => [
        card('struggling_moment', "That's the worst part. All the evening slots were gone and the app didn't tell me until I'd filled the whole basket."),
        card('workaround', 'I switched to click and collect at the store near my office'),
        card('desired_outcome', 'Show me the free slots before I start shopping, please.'),
        card('emotional_response', "Stressed, honestly, because I had nothing for the kids' lunches on Monday."),
      ];
      expect((await o.call('POST', `/sessions/${id}/reprocess`)).status).toBe(200);
      // Five cards, one of them dismissed: four counted.
      expect(await settled(o.call, id)).toMatchObject({ status: 'processed', evidence_count: 4 });
      const listed = (dismissed: boolean) => o.call('GET', `/signals?session_id=${id}&limit=50&dismissed=${dismissed}`).then((r) => r.body.signals as Array<any>);
      const again = [...(await listed(false)), ...(await listed(true))];
      const now = new Map(again.map((c) => [c.id, c]));
      expect(now.get(slots)).toMatchObject({ review_status: 'reviewed', quote: expect.stringMatching(/^That's the worst part/) });
      expect(now.get(collect)).toMatchObject({ annotation_text: 'Ask ops about store pickup', quote: 'I switched to click and collect at the store near my office' });
      expect(now.get(wish)).toMatchObject({ dismissed_reason: 'Said by the interviewer', dismissed_at: expect.any(String) });
      // Missed this time, but in a finding: kept as it was. Not worked on and missed: gone.
      expect(now.get(range)).toMatchObject({ quote: 'Their own-brand organic range.' });
      expect(now.has(reorder)).toBe(false);
      expect(again.filter((c) => !first.some((f) => f.id === c.id)).map((c) => c.signal_type)).toEqual(['emotional_response']);
      expect((await o.call('GET', `/findings/${finding.finding_ref}`)).body.finding.evidence_count).toBe(2);
    } finally {
      ai.evidence = before;
      await o.call('PATCH', '/settings', { openai_api_key: null, openai_base_url: null });
    }
  });

  it('keeps the id of every card extracted again, worked on or not, so links to it hold', async () => {
    const res = await postForm(svc, o.token, `${o.P}/sessions/import-transcript`, form({ transcript: { file: new URL('./fixtures/transcripts/checkout.txt', import.meta.url).pathname, filename: 'c.txt' } }));
    const id = res.body.session.id;
    await settled(o.call, id);
    const ids = async () => ((await o.call('GET', `/signals?session_id=${id}&limit=100`)).body.signals as Array<{ id: string }>).map((c) => c.id).sort();
    const before = await ids();
    expect(before.length).toBeGreaterThan(2);
    expect((await o.call('POST', `/sessions/${id}/reprocess`)).status).toBe(200);
    await settled(o.call, id);
    expect(await ids()).toEqual(before);
  });
});

describe('resumable uploads', () => {
  it('creates, signs parts, takes PUTs, completes into a queued interview', async () => {
    const file = fs.readFileSync(await speech('A longer recording uploaded in parts.', 'resumable', 'mp3'));
    const created = await o.call('POST', '/sessions/media-uploads', { filename: 'talk.mp3', content_type: 'audio/mpeg', size: file.length });
    expect(created.status).toBe(201);
    expect(created.body.upload).toMatchObject({ part_count: 1, status: 'open', part_size: 64 * 1024 * 1024 });
    const uid = created.body.upload.id;
    expect((await o.call('POST', '/sessions/media-uploads', { filename: 'x', content_type: 'audio/mpeg', size: 21 * 1024 ** 3 })).status).toBe(400);
    expect((await o.call('POST', '/sessions/media-uploads', { filename: 'x', content_type: 'text/plain', size: 10 })).status).toBe(400);
    expect((await o.call('POST', `/sessions/media-uploads/${uid}/parts`, { part_numbers: [2] })).status).toBe(400);
    const parts = (await o.call('POST', `/sessions/media-uploads/${uid}/parts`, { part_numbers: [1] })).body.parts;
    const put = await fetch(parts[0].url, { method: 'PUT', body: file });
    expect(put.status).toBe(200);
    const etag = put.headers.get('etag')!;
    expect((await fetch(parts[0].url.replace(/sig=[^&]+/, 'sig=bad'), { method: 'PUT', body: file })).status).toBe(403);
    const bad = await o.call('POST', `/sessions/media-uploads/${uid}/complete`, { parts: [{ part_number: 1, etag: '"nope"' }] });
    expect(bad.status).toBe(400);
    const done = await o.call('POST', `/sessions/media-uploads/${uid}/complete`, { parts: [{ part_number: 1, etag }], participant_name: 'Remote' });
    expect(done.status, JSON.stringify(done.body)).toBe(201);
    expect(done.body.session).toMatchObject({ source: 'upload', participant_name: 'Remote', processing_status: 'pending' });
    expect((await o.call('POST', `/sessions/media-uploads/${uid}/complete`, { parts: [{ part_number: 1, etag }] })).status).toBe(409);
    const settledState = await settled(o.call, done.body.session.id);
    expect(settledState).toMatchObject({ status: 'processed' });
    const said = (await o.call('GET', `/sessions/${done.body.session.id}/transcript`)).body.segments.map((s: any) => s.text).join(' ');
    expect(said).toMatch(/recording/i);
  });
});

describe('crash recovery', () => {
  it('runs again a step whose worker died holding it', async () => {
    const res = await postForm(svc, o.token, `${o.P}/sessions/import-transcript`, form({ transcript: { buffer: Buffer.from('Interviewer: How was it?\nSam: It was really easy.'), filename: 't.txt' } }));
    const id = res.body.session.id;
    await settled(o.call, id);
    // A job locked by a worker that died two minutes ago, as a SIGKILL leaves it.
    await svc.services.db.pool.query(`SELECT graphile_worker.add_job('interview_extract', json_build_object('interviewId', $1::text), job_key => 'ghost-' || $1::text)`, [id]);
    await svc.services.db.pool.query(`UPDATE graphile_worker._private_jobs SET locked_by = 'ghost-worker', locked_at = now() - interval '2 minutes' WHERE key = 'ghost-' || $1::text`, [id]);
    await svc.services.db.pool.query('DELETE FROM signals WHERE interview_id = $1', [id]);
    const until = Date.now() + 30_000;
    let left = 1;
    while (left && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 500));
      const { rows: rows } = await svc.services.db.pool.query(`SELECT count(*)::int AS n FROM graphile_worker.jobs WHERE key = 'ghost-' || $1::text`, [id]);
      left = (rows as Array<{ n: number }>)[0].n;
    }
    expect(left).toBe(0);
    expect((await svc.services.db.pool.query('SELECT count(*)::int AS n FROM signals WHERE interview_id = $1', [id])).rows[0].n).toBeGreaterThan(0);
  });
});
