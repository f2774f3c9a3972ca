import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './helpers/service.ts';
import { ownerWithProject, postForm, settled } from './helpers/fixtures.ts';
import { form } from './helpers/media.ts';
import { FIXTURES } from './helpers/extractor-eval.ts';
import { CaseFile } from '../tools/evidence/record.ts';
import { toolError } from './helpers/mcp.ts';

let svc: TestService;
let o: Awaited<ReturnType<typeof ownerWithProject>>;

beforeAll(async () => {
  svc = await startTestService({ env: { WORKER: 'on' } });
  o = await ownerWithProject(svc, 'interviews@example.com');
});
afterAll(() => svc?.stop());

const importFile = (file: string, extra: Record<string, string> = {}) =>
  postForm(svc, o.token, `${o.P}/sessions/import-transcript`, form({ transcript: { file: path.join(FIXTURES, file), type: 'text/plain' }, ...extra }));

describe('transcript import through the pipeline', () => {
  it.each(['checkout.txt', 'onboarding.vtt', 'analytics.srt', 'support.json'])('imports %s, parses speakers and times, and extracts verbatim evidence', async (file) => {
    const res = await importFile(file, { import_source: 'fixture', study_ref: 'starter-study' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.queued).toBe(true);
    const session = res.body.session;
    expect(session).toMatchObject({ source: 'import', status: 'completed', processing_status: 'pending', import_source: 'fixture' });
    expect(session.study_ref).toMatch(/^std_/);
    expect(session.transcript_format).toMatch(/^(text|vtt|srt|json)/);

    const done = await settled(o.call, session.id);
    expect(done).toMatchObject({ status: 'processed', current_step: null, error_code: null });
    expect(done.evidence_count).toBeGreaterThan(3);

    const transcript = (await o.call('GET', `/sessions/${session.id}/transcript`)).body;
    expect(new Set(transcript.segments.map((s: any) => s.role))).toEqual(new Set(['interviewer', 'participant']));
    for (const s of transcript.segments) expect(s.start_ms).not.toBeNull();

    const signals = (await o.call('GET', `/signals?session_id=${session.id}&limit=200`)).body;
    expect(signals.total).toBe(done.evidence_count);
    const segmentText = new Map(transcript.segments.map((s: any) => [s.id, s.text]));
    for (const sig of signals.signals) {
      expect(segmentText.get(sig.segment_id) as string).toContain(sig.quote);
      expect(sig.transcript_uncertain).toBe(false);
      expect(sig.timestamp_ms).not.toBeNull();
      expect(transcript.segments.find((s: any) => s.id === sig.segment_id).role).not.toBe('interviewer');
    }
    const one = (await o.call('GET', `/signals/${signals.signals[0].id}`)).body.signal;
    expect(CaseFile.safeParse(one.case_file).success).toBe(true);
    expect(one.provenance).toMatchObject({ interview: { id: session.id }, study: { handle: 'starter-study' } });
  });

  it('imports through MCP with the text in the arguments, answering like REST', async () => {
    const mcp = await svc.mcp(o.token);
    const text = fs.readFileSync(path.join(FIXTURES, 'invoicing.txt'), 'utf8');
    const res = await mcp.callTool({ name: 'interviews.import_transcript', arguments: { projectRef: o.project.project_ref, transcript: text, participant_name: 'Dev' } });
    const out = res.structuredContent as any;
    expect(out.queued).toBe(true);
    expect(out.session.participant_name).toBe('Dev');
    const done = await settled(o.call, out.session.id);
    expect(done.status).toBe('processed');
    const viaMcp = await mcp.callTool({ name: 'interviews.get', arguments: { projectRef: o.project.project_ref, sessionId: out.session.id } });
    expect(viaMcp.structuredContent).toEqual((await o.call('GET', `/sessions/${out.session.id}`)).body);
    expect(toolError(await mcp.callTool({ name: 'interviews.import_transcript', arguments: { projectRef: o.project.project_ref, transcript: '' } }))).toMatchObject({ status: 400 });
  });

  it('lists with filters and paging', async () => {
    const all = (await o.call('GET', '/sessions?limit=2')).body;
    expect(all.total).toBe(5);
    expect(all.sessions).toHaveLength(2);
    const next = (await o.call('GET', '/sessions?limit=2&offset=2')).body;
    expect(next.sessions.map((s: any) => s.id)).not.toContain(all.sessions[0].id);
    expect((await o.call('GET', '/sessions?processing_status=processed')).body.total).toBe(5);
    expect((await o.call('GET', '/sessions?status=created')).body.total).toBe(0);
    expect((await o.call('GET', '/sessions?limit=500')).status).toBe(400);
  });
});

describe('bad input', () => {
  it('refuses empty, over-size and binary transcripts, and a truncated body, storing nothing', async () => {
    const before = (await o.call('GET', '/sessions')).body.total;
    const empty = await postForm(svc, o.token, `${o.P}/sessions/import-transcript`, form({ transcript: { buffer: Buffer.alloc(0), filename: 'empty.txt' } }));
    expect(empty.status).toBe(400);
    const blank = await postForm(svc, o.token, `${o.P}/sessions/import-transcript`, form({ transcript: { buffer: Buffer.from('   \n\n'), filename: 'blank.txt' } }));
    expect(blank.status).toBe(400);
    // Blank is empty, said as an empty file is.
    expect(blank.body).toMatchObject({ error: empty.body.error, code: empty.body.code });
    const big = await postForm(svc, o.token, `${o.P}/sessions/import-transcript`, form({ transcript: { buffer: Buffer.alloc(5 * 1024 * 1024 + 1, 'a'), filename: 'big.txt' } }));
    expect(big.status).toBe(413);
    expect(big.body.error).toMatch(/transcript/);
    const elf = fs.readFileSync(process.execPath).subarray(0, 200_000);
    const binary = await postForm(svc, o.token, `${o.P}/sessions/import-transcript`, form({ transcript: { buffer: elf, filename: 'notes.txt' } }));
    expect(binary.status).toBe(400);
    expect(binary.body.error).toMatch(/binary|not UTF-8/);
    // A Word document is told how to become a transcript.
    const docx = await postForm(svc, o.token, `${o.P}/sessions/import-transcript`, form({ transcript: { buffer: Buffer.concat([Buffer.from('PK\x03\x04', 'latin1'), Buffer.alloc(64, 0)]), filename: 'notes.docx' } }));
    expect(docx).toMatchObject({ status: 400, body: { code: 'file_not_text', error: expect.stringContaining('plain text (.txt)') } });
    const missing = await postForm(svc, o.token, `${o.P}/sessions/import-transcript`, form({ participant_name: 'x' }));
    expect(missing.status).toBe(400);
    // A new user's mistakes are answered with what to do: the field's name, and where a recording goes.
    const wrongField = await postForm(svc, o.token, `${o.P}/sessions/import-transcript`, form({ file: { buffer: Buffer.from('Kim: hi'), filename: 't.txt' } }));
    expect(wrongField).toMatchObject({ status: 400, body: { code: 'unexpected_file_part', error: expect.stringContaining('send the file as "transcript"') } });
    const id3 = Buffer.concat([Buffer.from('ID3\x04\x00\x00\x00\x00\x00\x00', 'latin1'), Buffer.alloc(64, 0)]);
    const recording = await postForm(svc, o.token, `${o.P}/sessions/import-transcript`, form({ transcript: { buffer: id3, filename: 'call.mp3' } }));
    expect(recording).toMatchObject({ status: 400, body: { code: 'file_not_text', error: expect.stringContaining('upload-video') } });
    const truncated = await postForm(svc, o.token, `${o.P}/sessions/import-transcript`, '--XYZ\r\nContent-Disposition: form-data; name="transcript"; filename="a.txt"\r\n\r\nhello', { 'content-type': 'multipart/form-data; boundary=XYZ' });
    expect(truncated.status).toBe(400);
    expect(truncated.body.error).toMatch(/multipart/i);
    const json = await o.call('POST', '/sessions/import-transcript', { transcript: 'A: hi' });
    expect(json.status).toBe(400);
    expect((await o.call('GET', '/sessions')).body.total).toBe(before);
  });

  it('answers 404 for another project\'s interview on every route', async () => {
    const other = await ownerWithProject(svc, 'interviews-other@example.com');
    const theirs = await postForm(svc, other.token, `${other.P}/sessions/import-transcript`, form({ transcript: { buffer: Buffer.from('Interviewer: Hi?\nPat: It was easy.'), filename: 't.txt' } }));
    const id = theirs.body.session.id;
    for (const [method, p] of [['GET', ''], ['PATCH', ''], ['DELETE', ''], ['GET', '/processing'], ['GET', '/transcript'], ['GET', '/timeline'], ['POST', '/reprocess'], ['POST', '/events'], ['GET', '/artifacts']] as const) {
      const body = method === 'PATCH' ? { summary: 'x' } : p === '/events' ? { event_type: 'x', timestamp_ms: 1, event_line: 'x' } : undefined;
      const res = await o.call(method, `/sessions/${id}${p}`, body);
      expect(res.status, `${method} ${p}`).toBe(404);
    }
    const batch = await o.call('POST', '/sessions/processing-status', { session_ids: [id] });
    expect(batch.body).toEqual({ statuses: [], not_found: [id] });
    await settled(other.call, id);
  });

  it('refuses an events batch over 256 KB and reprocessing while processing', async () => {
    const created = (await o.call('POST', '/sessions', { participant_name: 'Live' })).body.session;
    const big = { events: [{ event_type: 'dom', timestamp_ms: 1, event_line: 'x', data: { blob: 'x'.repeat(270_000) } }] };
    const res = await o.call('POST', `/sessions/${created.id}/events`, big);
    expect(res.status).toBe(413);
    const imported = await importFile('travel.txt');
    const id = imported.body.session.id;
    await settled(o.call, id);
    // Caught mid-step, without racing the worker.
    await svc.services.db.pool.query(`UPDATE interviews SET processing_status = 'processing', processing_step = 'extracting' WHERE id = $1`, [id]);
    const busy = await o.call('POST', `/sessions/${id}/reprocess`);
    expect(busy.status).toBe(409);
    expect(busy.body).toMatchObject({ code: 'interview_processing', retryable: true });
    await svc.services.db.pool.query(`UPDATE interviews SET processing_status = 'processed', processing_step = NULL WHERE id = $1`, [id]);
  });
});

describe('interviews recorded live', () => {
  it('creates, updates through status moves, appends events and reads timelines and snapshots', async () => {
    const created = await o.call('POST', '/sessions', { participant_name: 'Robin', interview_mode: 'screen', study_ref: 'starter-study' });
    expect(created.status).toBe(201);
    const id = created.body.session.id;
    expect(created.body.session).toMatchObject({ status: 'created', processing_status: 'not_started', source: 'api' });
    expect((await o.call('PATCH', `/sessions/${id}`, { status: 'in_progress', consent_recording: true })).body.session).toMatchObject({ status: 'in_progress', consent_recording: true, started_at: expect.any(String) });
    expect((await o.call('PATCH', `/sessions/${id}`, { status: 'created' })).status).toBe(422);

    const one = await o.call('POST', `/sessions/${id}/events`, { event_type: 'snapshot', timestamp_ms: 1000, event_line: 'Opened pricing', data: { url: 'https://shop.example.com/pricing', title: 'Pricing' } });
    expect(one.body).toEqual({ appended: 1 });
    const batch = await o.call('POST', `/sessions/${id}/events`, {
      events: [
        { event_type: 'click', timestamp_ms: 2500, event_line: 'Clicked Buy', data: { selector: '#buy', segment_mode: 'observe', segment_id: 'task' } },
        { event_type: 'cue', timestamp_ms: 3000, event_line: 'Hesitated over the plan toggle', data: { segment_id: 'task' } },
        { event_type: 'snapshot', timestamp_ms: 4000, event_line: 'Checkout', data: { url: 'https://shop.example.com/checkout', title: 'Checkout' } },
      ],
    });
    expect(batch.body).toEqual({ appended: 3 });
    expect((await o.call('POST', `/sessions/${id}/events`, { event_type: 'x' })).status).toBe(400);

    const timeline = (await o.call('GET', `/sessions/${id}/timeline`)).body.items;
    expect(timeline.map((i: any) => i.timestamp_ms)).toEqual([1000, 2500, 3000, 4000]);
    const cues = (await o.call('GET', `/sessions/${id}/cues`)).body.cues;
    expect(cues.map((c: any) => c.cue)).toEqual(['Clicked Buy', 'Hesitated over the plan toggle']);
    const snap = (await o.call('GET', `/sessions/${id}/snapshots/3500`)).body;
    expect(snap).toMatchObject({ timestamp_ms: 1000, url: 'https://shop.example.com/pricing', title: 'Pricing' });
    expect((await o.call('GET', `/sessions/${id}/snapshots/500`)).status).toBe(404);
    const read = (await o.call('GET', `/sessions/${id}`)).body.session;
    expect(read.events).toHaveLength(4);
    expect(read.messages).toEqual([]);
    expect(read.chunks).toEqual([]);
    expect((await o.call('POST', `/sessions/${id}/retry-media-merge`)).status).toBe(400);
  });

  it('deletes an interview with its rows', async () => {
    const imported = await importFile('support.json');
    const id = imported.body.session.id;
    await settled(o.call, id);
    const del = await o.call('DELETE', `/sessions/${id}`);
    expect(del.status).toBe(200);
    expect(del.body.success).toBe(true);
    expect(del.body.dbRowsDeleted).toBeGreaterThan(10);
    expect((await o.call('GET', `/sessions/${id}`)).status).toBe(404);
    expect((await svc.services.db.pool.query('SELECT count(*)::int AS n FROM signals WHERE interview_id = $1', [id])).rows[0].n).toBe(0);
  });
});

describe('a long transcript sent as text', () => {
  it('takes a transcript over 1 MiB through MCP, as the 5 MiB limit says', async () => {
    const big = await ownerWithProject(svc, 'long-transcripts@example.com');
    const turn = `Interviewer: How did the export go this week?\nDana: ${'The export took ages again, and the file was missing the last column, so I rebuilt it by hand. '.repeat(12).trim()}\n`;
    const text = turn.repeat(Math.ceil((1.5 * 1024 * 1024) / turn.length));
    const mcp = await svc.mcp(big.token);
    // It reaches the import, which weighs what so long an interview would cost (more than a new organization's credits): not refused for its size.
    const res = await mcp.callTool({ name: 'interviews.import_transcript', arguments: { projectRef: big.project.project_ref, transcript: text } });
    expect(toolError(res)).toMatchObject({ status: 402, code: 'credits_exhausted' });
  }, 120_000);
});
