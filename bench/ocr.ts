import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { launchBrowser } from '../test/helpers/browser.ts';
import { tools } from '../tools/interviews/media.ts';
import { sceneFrames } from '../tools/interviews/scene-frames.ts';
import { screenReader } from '../tools/interviews/ocr.ts';

/**
 * Seconds the screen-reading work takes per minute of video: a generated one-minute screen
 * recording of six text pages with a button each (Chromium screenshots made into an mp4), its representative
 * frames derived, then read on one tesseract worker, as processing does.
 */
export async function ocrSecondsPerVideoMinute(): Promise<number> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'verbatim-bench-ocr-'));
  try {
    const browser = await launchBrowser();
    const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    for (let p = 0; p < 6; p++) {
      const rows = Array.from({ length: 8 }, (_, i) => `<p style="font-size:24px">Row ${i + 1} of report ${p + 1}: invoice ${1000 + p * 10 + i} due in ${i + 3} days</p>`).join('');
      // A primary button, white on blue, as most screens have: read on its own (tools/interviews/ocr-colour.ts).
      const button = `<button style="background:#2563eb;color:#fff;border:0;border-radius:6px;padding:10px 20px;font-size:18px">Pay invoice ${p + 1}</button>`;
      await page.setContent(`<body style="font-family:sans-serif;margin:40px"><h1>Billing page ${p + 1}</h1>${rows}${button}</body>`);
      fs.writeFileSync(path.join(dir, `page-${p + 1}.png`), await page.screenshot());
    }
    await browser.close();
    const { ffmpeg } = tools({ ffmpegPath: process.env.FFMPEG_PATH || null, ffprobePath: process.env.FFPROBE_PATH || null });
    const video = path.join(dir, 'screen.mp4');
    // Each page shown for ten seconds, at 10 frames a second.
    execFileSync(ffmpeg, ['-v', 'error', '-y', '-framerate', '0.1', '-i', path.join(dir, 'page-%d.png'), '-r', '10', '-t', '60', '-pix_fmt', 'yuv420p', video]);
    const started = performance.now();
    const frames = await sceneFrames(ffmpeg, video, dir, 60);
    const reader = await screenReader();
    try {
      for (const f of frames) await reader.read(f.file);
    } finally {
      await reader.close();
    }
    return (performance.now() - started) / 1000;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
