import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './helpers/service.ts';
import { ownerWithProject, postForm, settled } from './helpers/fixtures.ts';
import { ffmpeg, form, mediaDir, speech } from './helpers/media.ts';
import { transcribeLocally } from '../tools/interviews/local-transcription.ts';
import { stopTranscriber } from '../tools/interviews/transcriber-client.ts';

/**
 * Built-in transcription runs in a process of its own, a child of the one running the worker:
 * the model's memory never sits in the server, and the process goes with the worker.
 */
let svc: TestService;
let o: Awaited<ReturnType<typeof ownerWithProject>>;

beforeAll(async () => {
  svc = await startTestService({ env: { WORKER: 'on' } });
  o = await ownerWithProject(svc, 'transcriber@example.com');
});
afterAll(async () => {
  await svc?.stop();
});

/** Pids of this process's children running the transcriber. */
function transcribers(): number[] {
  return fs
    .readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .filter((pid) => {
      try {
        const ppid = Number(fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')[1]);
        return ppid === process.pid && fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('transcriber-process.ts');
      } catch {
        return false; // gone meanwhile
      }
    })
    .map(Number);
}

async function transcribed(name: string, text: string): Promise<string> {
  const wav = await speech(text, name);
  const res = await postForm(svc, o.token, `${o.P}/sessions/upload-video`, form({ audio: { file: wav, filename: `${name}.wav`, type: 'audio/wav' } }));
  const id = res.body.session.id as string;
  expect(await settled(o.call, id)).toMatchObject({ status: 'processed', warnings: [] });
  return ((await o.call('GET', `/sessions/${id}/transcript`)).body.segments as Array<{ text: string }>).map((s) => s.text).join(' ');
}

describe('the transcriber process', () => {
  it('transcribes in a child process, starts a new one when that one dies, hangs or is let go, and stops with the worker', async () => {
    expect(transcribers()).toEqual([]);
    expect(await transcribed('first', "I couldn't find the export button anywhere.")).toMatch(/find the export/i);
    const [first] = transcribers();
    expect(first).toBeGreaterThan(0);

    process.kill(first, 'SIGKILL');
    await new Promise((r) => setTimeout(r, 300));
    expect(await transcribed('second', 'I tried three times and then I gave up.')).toMatch(/three times/i);
    const [second] = transcribers();
    expect(second).toBeGreaterThan(0);
    expect(second).not.toBe(first);

    // A file sent as the idle process is being let go is transcribed by the next one, and a file
    // sent to a process killed a moment ago fails as retryable: neither takes the server down.
    const wav = await speech("I couldn't find the export button anywhere.", 'direct');
    await transcribeLocally(ffmpeg, wav, 0, mediaDir);
    stopTranscriber();
    expect((await transcribeLocally(ffmpeg, wav, 0, mediaDir)).texts.map((t) => t.text).join(' ')).toMatch(/export/i);
    process.kill(transcribers()[0], 'SIGKILL');
    const sentToDead = await transcribeLocally(ffmpeg, wav, 0, mediaDir).then(
      (heard) => ({ texts: heard.texts }),
      (err: { code?: string; retryable?: boolean }) => ({ code: err.code, retryable: err.retryable }),
    );
    if (!('texts' in sentToDead)) expect(sentToDead).toEqual({ code: 'transcription_failed', retryable: true });
    expect((await transcribeLocally(ffmpeg, wav, 0, mediaDir)).texts.map((t) => t.text).join(' ')).toMatch(/export/i);

    // A process that does not answer in time is killed, its file fails as retryable, and the next file gets a new one.
    const stuck = transcribers()[0];
    await expect(transcribeLocally(ffmpeg, wav, 0, mediaDir, { timeoutMs: 1 })).rejects.toMatchObject({ code: 'transcription_failed', retryable: true, message: expect.stringContaining('no answer within') });
    expect((await transcribeLocally(ffmpeg, wav, 0, mediaDir)).texts.map((t) => t.text).join(' ')).toMatch(/export/i);
    expect(transcribers()).not.toContain(stuck);

    await svc.stop();
    const until = Date.now() + 5000;
    while (transcribers().length && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
    expect(transcribers()).toEqual([]);
  }, 60_000);
});
