import { h, fromMarkup, uid } from './dom.ts';
import { ICONS } from './icons.ts';
import type { Invitation } from './types.ts';

const REWARD_KIND: Record<string, string> = { gift: 'Gift', product: 'Product perk', community: 'Community', access: 'Early access' };

export interface Panel {
  root: HTMLElement;
  /** Replaces what the panel shows below its header. */
  show(...content: Node[]): void;
  /** A new heading, when the invitation's question no longer fits ("Thank you" on the last screen); null puts the invitation's back. */
  retitle(text: string | null): void;
  /**
   * While the participant does a task on the page: a compact bar docked at the bottom, not modal,
   * focus free to leave, the launcher out of its way; false restores the full dialog.
   */
  compact(on: boolean): void;
  open(): void;
  close(): void;
  isOpen(): boolean;
}

/**
 * The dialog the launcher opens: header with the invitation's eyebrow and headline, a body
 * whose content each step replaces, Escape to close, focus kept inside while open (except as
 * a compact bar) and given back to the launcher when it closes.
 */
export function createPanel(inv: Invitation, title: string, launcher: HTMLElement | null, onClose: () => void): Panel {
  const headingId = uid('vb-headline');
  const eyebrow = inv.panel?.eyebrow ? h('p', { class: 'vb-eyebrow' }, inv.panel.eyebrow) : null;
  const invited = inv.panel?.headline ?? title;
  const heading = h('h2', { class: 'vb-headline', id: headingId }, invited);
  const body = h('div', { class: 'vb-body' });
  const close = h('button', { type: 'button', class: 'vb-close', 'aria-label': 'Close' }, fromMarkup(ICONS.close));
  const root = h(
    'div',
    { class: 'vb-panel', role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': headingId, hidden: true },
    h('div', { class: 'vb-head' },
      h('div', {}, eyebrow, heading),
      close,
    ),
    body,
  );
  // Only what can take focus now: hidden controls (and those inside hidden parts) are left out.
  const focusables = () =>
    [...root.querySelectorAll<HTMLElement>('button:not([disabled]), input:not([disabled]), textarea:not([disabled]), [href], [tabindex]:not([tabindex="-1"])')].filter((el) => el.getClientRects().length > 0);
  let compact = false;
  /** The compact bar sits where the launcher is, so the launcher steps aside while the bar shows. */
  let hostPadding: string | null = null;
  const placeLauncher = () => {
    const bar = compact && !root.hidden;
    if (launcher) launcher.hidden = bar;
    // The page can scroll its last lines (a bottom button, say) out from under the bar.
    if (bar && hostPadding === null) {
      hostPadding = document.body.style.paddingBottom;
      requestAnimationFrame(() => {
        if (hostPadding !== null) document.body.style.paddingBottom = `${Math.ceil(root.getBoundingClientRect().height) + 16}px`;
      });
    } else if (!bar && hostPadding !== null) {
      document.body.style.paddingBottom = hostPadding;
      hostPadding = null;
    }
  };
  const panel: Panel = {
    root,
    show(...content) {
      body.replaceChildren(...content);
      if (!root.hidden) (focusables().find((el) => el !== close) ?? close).focus();
    },
    retitle(text) {
      heading.textContent = text ?? invited;
      if (eyebrow) eyebrow.hidden = text !== null;
    },
    compact(on) {
      if (on === compact) return;
      compact = on;
      root.classList.toggle('vb-compact', on);
      if (on) root.removeAttribute('aria-modal');
      else root.setAttribute('aria-modal', 'true');
      placeLauncher();
    },
    open() {
      root.hidden = false;
      placeLauncher();
      launcher?.setAttribute('aria-expanded', 'true');
      (focusables().find((el) => el !== close) ?? close).focus();
    },
    close() {
      root.hidden = true;
      placeLauncher();
      launcher?.setAttribute('aria-expanded', 'false');
      launcher?.focus();
      onClose();
    },
    isOpen: () => !root.hidden,
  };
  close.addEventListener('click', () => panel.close());
  root.addEventListener('keydown', (e) => {
    if (e.key === 'Escape') {
      e.preventDefault();
      panel.close();
    } else if (e.key === 'Tab' && !compact) {
      const list = focusables();
      const active = (root.getRootNode() as ShadowRoot).activeElement;
      if (e.shiftKey && active === list[0]) {
        e.preventDefault();
        list[list.length - 1].focus();
      } else if (!e.shiftKey && active === list[list.length - 1]) {
        e.preventDefault();
        list[0].focus();
      }
    }
  });
  return panel;
}

/** The invitation itself: body, duration, reward, image and the call to action. */
export function inviteView(inv: Invitation, onStart: () => void): Node[] {
  const p = inv.panel;
  const meta: Node[] = [];
  if (p?.duration_minutes) meta.push(h('li', {}, `About ${p.duration_minutes} minute${p.duration_minutes === 1 ? '' : 's'}`));
  if (p?.reward) {
    meta.push(h('li', {}, `${REWARD_KIND[p.reward.kind] ?? 'Reward'}: ${p.reward.label}`));
    if (p.reward.eligibility) meta.push(h('li', { class: 'vb-small' }, p.reward.eligibility));
    if (p.reward.delivery) meta.push(h('li', { class: 'vb-small' }, p.reward.delivery));
  }
  const nodes: Array<Node | null> = [
    p?.image ? h('img', { class: 'vb-image', src: p.image.url, alt: p.image.alt, width: '348', height: '196' }) : null,
    p?.body ? h('p', {}, p.body) : null,
    meta.length ? h('ul', { class: 'vb-meta' }, ...meta) : null,
    h('button', { type: 'button', class: 'vb-primary', onclick: onStart }, p?.cta ?? 'Start'),
  ];
  return nodes.filter((n): n is Node => n !== null);
}
