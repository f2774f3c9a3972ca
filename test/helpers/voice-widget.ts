import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { validInvitation } from './fixtures.ts';

/** A study for voice tests: a welcome, two talk segments with the given instructions, thanks. */
export function voiceScript(exportInstruction: string, wishInstruction: string) {
  return {
    version: 2,
    goals: [{ id: 'g1', description: 'Understand exporting' }],
    segments: [
      { id: 'hello', mode: 'speak', title: 'Hello', speak_text: 'Welcome, thanks for joining.' },
      { id: 'export', mode: 'talk', title: 'Exporting', instruction: exportInstruction },
      { id: 'wish', mode: 'talk', title: 'Wishes', instruction: wishInstruction },
      { id: 'bye', mode: 'speak', title: 'Thanks', speak_text: 'Thank you, that was really helpful.' },
    ],
  };
}

/** A customer's page on its own loopback origin, embedding the widget. */
export async function customerPage(widgetSrc: string, key: string) {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><html lang="en"><head><title>Reports</title></head>
<body><main style="padding:24px"><h1>Reports</h1></main><script src="${widgetSrc}" data-project-key="${key}" async></script></body></html>`);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/** Evaluates `expr` with `root` bound to the widget's shadow root. */
export const shadow = (page: Page, expr: string) => page.evaluate(`(() => { const root = document.querySelector('#verbatim-widget').shadowRoot; return ${expr}; })()`);

/** Clicks the visible widget button with this text. */
export const click = (page: Page, text: string) => shadow(page, `[...root.querySelectorAll('button')].find((b) => b.textContent === ${JSON.stringify(text)} && !b.hidden).click()`);

/** Waits until `expr` (with `root` bound to the shadow root) is true. */
export const waitFor = async (page: Page, expr: string, timeout = 60_000) => {
  await page.waitForFunction(`(() => { const root = document.querySelector('#verbatim-widget')?.shadowRoot; return root && (${expr}); })()`, undefined, { timeout, polling: 200 });
};

/** Opens the widget on `url`, consents to data use and recording, and picks Talk. */
export async function chooseVoice(page: Page, url: string) {
  await page.goto(url);
  await page.locator('.vb-launcher').click();
  await click(page, validInvitation.panel.cta);
  await shadow(page, `[...root.querySelectorAll('input[type=checkbox]')].forEach((c) => c.click())`);
  await click(page, 'Continue');
  await waitFor(page, `[...root.querySelectorAll('button')].some((b) => b.textContent === 'Talk')`);
  await click(page, 'Talk');
}
