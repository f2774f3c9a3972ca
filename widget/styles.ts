import type { Invitation } from './types.ts';

/** Black or white, whichever reads better on `hex`. */
export function contrastOn(hex: string): string {
  const n = parseInt(hex.slice(1), 16);
  const [r, g, b] = [(n >> 16) & 255, (n >> 8) & 255, n & 255].map((c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.4 ? '#111111' : '#FFFFFF';
}

const RADIUS = { capsule: '999px', rounded: '12px', square: '4px' };

const side = (p: 'bottom-left' | 'bottom-right') => (p === 'bottom-left' ? 'left: 20px; right: auto;' : 'right: 20px; left: auto;');

/**
 * Everything the widget draws lives in its shadow root, styled from the invitation: brand and
 * foreground colours for light and dark schemes, launcher style and shape, and placement on
 * desktop and (under 640px) on mobile.
 */
export function stylesFor(inv: Invitation): string {
  const light = inv.brand_color.light;
  const dark = inv.brand_color.dark ?? light;
  const fgLight = inv.foreground_color ?? contrastOn(light);
  const fgDark = inv.foreground_color ?? contrastOn(dark);
  const radius = RADIUS[inv.launcher.shape ?? 'capsule'];
  const style = inv.launcher.style ?? 'calm';
  const launcherBackground = {
    calm: 'background: var(--vb-brand);',
    lattice: 'background-color: var(--vb-brand); background-image: linear-gradient(rgba(255,255,255,.14) 1px, transparent 1px), linear-gradient(90deg, rgba(255,255,255,.14) 1px, transparent 1px); background-size: 8px 8px;',
    beam: 'background: linear-gradient(135deg, var(--vb-brand), color-mix(in srgb, var(--vb-brand) 60%, white));',
    ticket: 'background: var(--vb-surface); color: var(--vb-brand) !important; border: 2px dashed var(--vb-brand) !important;',
  }[style];
  return `
:host { all: initial; }
* { box-sizing: border-box; }
.vb { --vb-brand: ${light}; --vb-fg: ${fgLight}; --vb-surface: #ffffff; --vb-text: #1b1b1f; --vb-muted: #5b5b66; --vb-line: #dcdce3;
  font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--vb-text); }
@media (prefers-color-scheme: dark) {
  .vb { --vb-brand: ${dark}; --vb-fg: ${fgDark}; --vb-surface: #1d1d22; --vb-text: #f2f2f5; --vb-muted: #b4b4c0; --vb-line: #3a3a44; }
}
.vb-launcher { position: fixed; bottom: 20px; ${side(inv.placement.desktop)} z-index: 2147483000; display: inline-flex; align-items: center; gap: 8px;
  padding: 10px 16px; border: 0; border-radius: ${radius}; color: var(--vb-fg); ${launcherBackground} font: inherit; font-weight: 600; cursor: pointer;
  box-shadow: 0 6px 20px rgba(0,0,0,.2); }
.vb-launcher:focus-visible, .vb button:focus-visible, .vb input:focus-visible, .vb textarea:focus-visible { outline: 3px solid var(--vb-brand); outline-offset: 2px; }
.vb-teaser { position: fixed; bottom: 72px; ${side(inv.placement.desktop)} z-index: 2147483000; max-width: 260px; padding: 10px 12px; border-radius: 10px;
  background: var(--vb-surface); color: var(--vb-text); border: 1px solid var(--vb-line); box-shadow: 0 6px 20px rgba(0,0,0,.15); }
.vb-panel { position: fixed; bottom: 76px; ${side(inv.placement.desktop)} z-index: 2147483001; width: min(380px, calc(100vw - 24px)); max-height: min(640px, calc(100vh - 96px));
  display: flex; flex-direction: column; background: var(--vb-surface); color: var(--vb-text); border: 1px solid var(--vb-line); border-radius: 14px;
  box-shadow: 0 18px 48px rgba(0,0,0,.25); overflow: hidden; }
.vb-panel[hidden], .vb-teaser[hidden] { display: none; }
.vb-head { display: flex; align-items: start; justify-content: space-between; gap: 8px; padding: 16px 16px 0; }
.vb-eyebrow { margin: 0 0 4px; font-size: 12px; font-weight: 700; letter-spacing: .06em; text-transform: uppercase; color: var(--vb-brand); }
.vb-headline { margin: 0; font-size: 18px; line-height: 1.3; }
.vb-close { flex: none; display: inline-grid; place-items: center; width: 32px; height: 32px; border: 0; border-radius: 8px; background: transparent; color: var(--vb-muted); cursor: pointer; }
.vb-body { padding: 12px 16px 16px; overflow-y: auto; display: flex; flex-direction: column; gap: 12px; }
.vb-body p { margin: 0; }
.vb-meta { margin: 0; padding: 0; list-style: none; display: grid; gap: 4px; color: var(--vb-muted); font-size: 14px; }
.vb-image { width: 100%; height: auto; border-radius: 10px; aspect-ratio: 16 / 9; object-fit: cover; background: var(--vb-line); }
.vb-primary { align-self: stretch; padding: 10px 14px; border: 0; border-radius: 10px; background: var(--vb-brand); color: var(--vb-fg); font: inherit; font-weight: 600; cursor: pointer; }
.vb-primary:disabled, .vb-primary[aria-disabled="true"] { opacity: .5; cursor: not-allowed; }
.vb-secondary { padding: 8px 12px; border: 1px solid var(--vb-line); border-radius: 10px; background: transparent; color: var(--vb-text); font: inherit; cursor: pointer; }
.vb-quiet { padding: 4px 2px; border: 0; background: transparent; color: var(--vb-muted); font: inherit; font-size: 13px; text-decoration: underline; text-underline-offset: 2px; cursor: pointer; }
.vb-danger { padding: 8px 14px; border: 0; border-radius: 10px; background: #b3261e; color: #ffffff; font: inherit; font-weight: 600; cursor: pointer; }
.vb-danger:disabled, .vb-secondary:disabled { opacity: .5; cursor: not-allowed; }
.vb-end { justify-content: flex-end; border-top: 1px solid var(--vb-line); padding-top: 8px; }
.vb-confirm { display: grid; gap: 8px; width: 100%; }
.vb-check { display: flex; gap: 8px; align-items: start; }
.vb-small { font-size: 12px; color: var(--vb-muted); }
.vb fieldset { margin: 0; padding: 0; border: 0; display: grid; gap: 6px; }
.vb legend { font-weight: 600; margin-bottom: 4px; }
.vb textarea, .vb input[type=text], .vb input[type=number] { width: 100%; padding: 8px 10px; border: 1px solid var(--vb-line); border-radius: 8px; background: var(--vb-surface); color: var(--vb-text); font: inherit; }
.vb-log { display: flex; flex-direction: column; gap: 8px; min-height: 160px; max-height: 320px; overflow-y: auto; }
.vb-msg { max-width: 85%; padding: 8px 12px; border-radius: 12px; white-space: pre-wrap; }
.vb-msg-conductor { align-self: flex-start; background: color-mix(in srgb, var(--vb-brand) 12%, var(--vb-surface)); }
.vb-msg-participant { align-self: flex-end; background: var(--vb-brand); color: var(--vb-fg); }
.vb-compose { display: flex; gap: 8px; align-items: end; }
.vb-compose textarea { min-height: 44px; resize: vertical; }
.vb-row { display: flex; gap: 8px; flex-wrap: wrap; }
.vb-error { color: #b3261e; }
.vb-voice { display: grid; gap: 8px; padding: 10px 12px; border-radius: 12px; border: 1px solid var(--vb-line); background: color-mix(in srgb, var(--vb-brand) 6%, var(--vb-surface)); }
.vb-voice[hidden], .vb [hidden] { display: none !important; }
.vb-voice-state { margin: 0; font-weight: 600; color: var(--vb-brand); }
.vb-voice[data-state=listening] .vb-voice-state::before { content: ''; display: inline-block; width: 8px; height: 8px; margin-right: 6px; border-radius: 50%; background: var(--vb-brand); }
.vb-caption { margin: 0; font-size: 16px; min-height: 1.45em; }
.vb-meter { flex: 1 1 80px; min-width: 60px; height: 10px; align-self: center; }
.vb-choice { display: grid; gap: 8px; }
.vb-task { display: none; margin: 0; font-weight: 600; }
.vb-panel.vb-compact { bottom: 20px; max-height: min(360px, 45vh); box-shadow: 0 8px 28px rgba(0,0,0,.22); }
.vb-compact .vb-head { padding-top: 10px; }
.vb-compact .vb-headline { font-size: 13px; font-weight: 700; letter-spacing: .04em; text-transform: uppercase; color: var(--vb-brand); }
.vb-compact .vb-close { width: 28px; height: 28px; }
.vb-compact .vb-body { padding-top: 4px; gap: 8px; }
.vb-compact .vb-task { display: block; }
.vb-compact .vb-log, .vb-compact .vb-end { display: none; }
.vb-sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
@media (max-width: 640px) {
  .vb-launcher, .vb-teaser, .vb-panel { ${side(inv.placement.mobile)} }
  .vb-panel { bottom: 72px; width: calc(100vw - 24px); ${inv.placement.mobile === 'bottom-left' ? 'left: 12px;' : 'right: 12px;'} }
  .vb-panel.vb-compact { bottom: 0; left: 0; right: 0; width: 100vw; border-radius: 14px 14px 0 0; border-bottom: 0; }
}
@media (prefers-reduced-motion: no-preference) { .vb-panel { animation: vb-in .16s ease-out; } @keyframes vb-in { from { opacity: 0; transform: translateY(8px); } } }
`;
}
