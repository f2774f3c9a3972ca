import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { screenReader } from '../tools/interviews/ocr.ts';
import { launchBrowser } from './helpers/browser.ts';
import { ffmpeg } from './helpers/media.ts';

let browser: Browser;
let reader: Awaited<ReturnType<typeof screenReader>>;

beforeAll(async () => {
  browser = await launchBrowser();
  reader = await screenReader();
}, 120_000);
afterAll(async () => {
  await reader?.close();
  await browser?.close();
});

async function shot(body: string): Promise<Buffer> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
  try {
    await page.setContent(`<body style="margin:0;font-family:sans-serif">${body}</body>`);
    return await page.screenshot();
  } finally {
    await page.close();
  }
}

const button = (fill: string, label: string) => `<button style="background:${fill};color:#fff;border:0;border-radius:6px;padding:10px 22px;font:600 15px sans-serif;margin:8px">${label}</button>`;

describe('text on coloured boxes', () => {
  it('reads the labels of primary buttons and badges, white on a saturated fill', async () => {
    const frame = await shot(
      `<div style="margin:40px"><h2>Payment failed</h2><p>Your card was declined.</p>${button('#3355FF', 'Retry')}${button('#d93025', 'Delete account')}${button('#0f9d58', 'Save changes')}` +
        `<p>Invoice 42 <span style="background:#dc2626;color:#fff;padding:3px 10px;border-radius:10px;font-size:15px">Overdue</span></p></div>`,
    );
    const { lines, prominent } = await reader.read(frame);
    const text = lines.join('\n');
    for (const label of ['Retry', 'Delete account', 'Save changes', 'Overdue']) expect(text, label).toContain(label);
    expect(text).toMatch(/Your card was declined/);
    expect(prominent).toBe('Payment failed');
  }, 60_000);

  it('invents nothing from colour without text: a gradient, a colour wheel, colour noise', async () => {
    const wheel = await shot('<div style="height:360px;background:linear-gradient(90deg,#f97316,#db2777)"></div><div style="width:400px;height:180px;background:conic-gradient(red,yellow,lime,aqua,blue,magenta,red)"></div>');
    expect((await reader.read(wheel)).lines).toEqual([]);
    const noise = execFileSync(ffmpeg, ['-v', 'error', '-f', 'lavfi', '-i', 'nullsrc=size=640x360,format=rgb24,geq=r=random(1)*255:g=random(2)*255:b=random(3)*255', '-frames:v', '1', '-c:v', 'png', '-f', 'image2pipe', 'pipe:1']);
    expect((await reader.read(noise)).lines).toEqual([]);
  }, 60_000);
});
