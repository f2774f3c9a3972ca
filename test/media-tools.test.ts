import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestService } from './helpers/service.ts';
import { ownerWithProject, postForm, settled } from './helpers/fixtures.ts';
import { ffmpeg as bundled, form, video } from './helpers/media.ts';
import { createLogger } from '../core/logger.ts';
import { tools } from '../tools/interviews/media.ts';

/**
 * Uploads are decoded by a system ffmpeg when there is one (the operating system keeps it
 * patched); the 2018 build shipped in npm is the last resort, and the worker says so at start.
 */
const originalPath = process.env.PATH;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'verbatim-ffmpeg-'));
afterAll(() => {
  process.env.PATH = originalPath;
  fs.rmSync(dir, { recursive: true, force: true });
});

const bundledProbe = tools({ ffmpegPath: null, ffprobePath: null }).ffprobe;

/** A "system" ffmpeg and ffprobe that note each call, then run the real binaries. */
function systemTools(): { folder: string; calls: () => string[] } {
  const folder = path.join(dir, 'bin');
  const log = path.join(dir, 'calls.log');
  fs.mkdirSync(folder, { recursive: true });
  for (const [name, real] of [['ffmpeg', bundled], ['ffprobe', bundledProbe]]) {
    fs.writeFileSync(path.join(folder, name), `#!/bin/sh\necho ${name} >> "${log}"\nexec "${real}" "$@"\n`, { mode: 0o755 });
  }
  return { folder, calls: () => (fs.existsSync(log) ? fs.readFileSync(log, 'utf8').split('\n').filter(Boolean) : []) };
}

async function workerRun(pathVar: string) {
  process.env.PATH = pathVar;
  const lines: string[] = [];
  const log = createLogger('warn', {}, { write: (s: string) => void lines.push(s) });
  const svc = await startTestService({ env: { WORKER: 'on' }, log });
  return { svc, warnings: () => lines.map((l) => JSON.parse(l) as { msg: string }).map((r) => r.msg).filter((m) => m.includes('ffmpeg')) };
}

describe('which ffmpeg decodes uploads', () => {
  it('uses an ffmpeg on PATH before the bundled one, and then does not warn', async () => {
    const system = systemTools();
    const { svc, warnings } = await workerRun(`${system.folder}${path.delimiter}${originalPath}`);
    try {
      const o = await ownerWithProject(svc, 'ffmpeg-system@example.com');
      const res = await postForm(svc, o.token, `${o.P}/sessions/upload-video`, form({ video: { file: video('system-ffmpeg', 2), filename: 'v.mp4', type: 'video/mp4' } }));
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      await settled(o.call, res.body.session.id);
      const artifacts = (await o.call('GET', `/sessions/${res.body.session.id}/artifacts`)).body.artifacts.map((a: { name: string }) => a.name);
      expect(artifacts).toContain('audio');
      expect(system.calls()).toEqual(expect.arrayContaining(['ffmpeg', 'ffprobe']));
      expect(warnings()).toEqual([]);
    } finally {
      await svc.stop();
    }
  });

  it('falls back to the bundled ffmpeg and warns at start that it is a 2018 build', async () => {
    const empty = path.join(dir, 'empty');
    fs.mkdirSync(empty, { recursive: true });
    const { svc, warnings } = await workerRun(empty);
    try {
      expect(warnings()).toEqual([expect.stringMatching(/ffmpeg 4\.1 shipped in npm.*FFMPEG_PATH/)]);
    } finally {
      await svc.stop();
    }
  });
});
