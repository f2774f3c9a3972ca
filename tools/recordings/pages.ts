import { escapeHtml } from '../../core/html.ts';
import type { PlanValue } from './record.ts';
import { LAUNCH_SCRIPT } from './launch-script.ts';


const STYLE = `
body { font-family: system-ui, sans-serif; max-width: 40rem; margin: 3rem auto; padding: 0 1rem; line-height: 1.5; color: #1f2328; }
h1 { font-size: 1.5rem; } ol li { margin: .5rem 0; white-space: pre-wrap; }
button { font-size: 1rem; padding: .6rem 1.4rem; border-radius: .4rem; border: 0; background: #1f6feb; color: #fff; cursor: pointer; }
button:disabled { opacity: .5; cursor: default; } #finish { background: #cf222e; }
.status { margin-top: 1rem; } .error { color: #cf222e; } .warn { color: #9a6700; } .done { color: #1a7f37; font-weight: 600; }
.muted { color: #59636e; font-size: .9rem; } video { width: 100%; background: #000; }`;

function layout(title: string, nonce: string, body: string, bodyAttrs = ''): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${escapeHtml(title)}</title><style nonce="${nonce}">${STYLE}</style></head>
<body${bodyAttrs}>${body}</body></html>`;
}

const link = (url: string, text: string) => `<a href="${escapeHtml(url)}" target="_blank" rel="noopener noreferrer">${escapeHtml(text)}</a>`;

export function launchPage(plan: PlanValue, token: string, nonce: string, interrupted = false): string {
  const steps = plan.steps.map((s) => `<li>${escapeHtml(s.instruction)}${s.url ? ` (${link(s.url, 'open the page')})` : ''}</li>`).join('\n');
  return layout(
    plan.title,
    nonce,
    `<h1>${escapeHtml(plan.title)}</h1>
<p>You are asked to record your screen and your voice while you use ${link(plan.targetUrl, new URL(plan.targetUrl).host)}.
When you press Start, your browser asks which tab or screen to share and for your microphone. Recording starts only then, and
by starting it you agree that the recording and what you say are kept and used for research.</p>
<h2>Steps</h2>
<ol>
${steps}
</ol>
${interrupted ? '<p class="warn">A recording from this link was started but not finished. Starting again records from the beginning and replaces it.</p>\n' : ''}<p><button id="start" type="button">Start recording</button> <button id="finish" type="button" hidden>Finish</button></p>
<p id="status" class="status" role="status"></p>
<p class="muted">Works in a recent Chrome, Edge or Firefox on a computer. The recording uploads while you go: keep this page open until it says it is sent.</p>
<script nonce="${nonce}">${LAUNCH_SCRIPT}</script>`,
    ` data-token="${escapeHtml(token)}"`,
  );
}

export function messagePage(title: string, message: string, nonce: string): string {
  return layout(title, nonce, `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>`);
}

export function viewPage(plan: PlanValue, videoUrl: string, mimeType: string, nonce: string): string {
  return layout(
    plan.title,
    nonce,
    `<h1>${escapeHtml(plan.title)}</h1>
<video controls preload="metadata"><source src="${escapeHtml(videoUrl)}" type="${escapeHtml(mimeType)}"></video>`,
  );
}
