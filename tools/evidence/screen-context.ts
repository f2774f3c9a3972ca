import type { Services } from '../../core/context.ts';
import type { NewSignal } from './extract.ts';

/** On-screen text longer than this (a full app screen is 1,000–2,000 characters) is cut in an evidence card's facts; the full text stays in the screen-text artifact. */
const MAX_SCREEN_FACT = 2000;
/** A remark may be about the screen that has just gone ("What did that pop-up say?"). */
const STILL_IN_MIND_MS = 2000;

interface Screen {
  atMs: number;
  /** When the screen gave way to another (unknown for frames read before 2026-11-29). */
  untilMs: number | null;
  text: string | null;
  prominent: string | null;
}

/**
 * Gives evidence the text that was on screen at its moment: the frame showing then is the last
 * representative frame (a scene change) at or before the evidence's timestamp, if that screen was
 * still showing (or had gone under two seconds before). When that frame
 * had readable text, a card without a page title gets its most prominent line, and the text
 * becomes one of its observed facts, so evidence search finds it.
 */
export async function withScreenContext<T extends Pick<NewSignal, 'timestamp_ms' | 'page_title' | 'observed_facts_json'>>(services: Services, interviewId: string, rows: T[]): Promise<T[]> {
  const { rows: artifacts } = await services.db.pool.query<{ name: string; kind: string; meta: Record<string, unknown> | null }>(
    `SELECT name, kind, meta FROM interview_artifacts WHERE interview_id = $1 AND kind IN ('frame', 'screen_text')`,
    [interviewId],
  );
  const texts = new Map(artifacts.filter((a) => a.kind === 'screen_text').map((a) => [String(a.meta?.frame), a.meta]));
  const screens: Screen[] = artifacts
    .filter((a) => a.kind === 'frame' && typeof a.meta?.timestamp_ms === 'number')
    .map((a) => {
      const t = texts.get(a.name);
      const until = typeof t?.until_ms === 'number' ? t.until_ms : typeof a.meta?.until_ms === 'number' ? a.meta.until_ms : null;
      return { atMs: a.meta!.timestamp_ms as number, untilMs: until, text: typeof t?.text === 'string' ? t.text : null, prominent: typeof t?.prominent_line === 'string' ? t.prominent_line : null };
    })
    .sort((a, b) => a.atMs - b.atMs);
  if (!screens.some((s) => s.text)) return rows;
  return rows.map((row) => {
    if (row.timestamp_ms === null) return row;
    const screen = screens.filter((s) => s.atMs <= row.timestamp_ms!).pop();
    // A screen that gave way to one not read (more screens than a minute's frames) was not what they were looking at.
    if (!screen?.text || (screen.untilMs !== null && row.timestamp_ms >= screen.untilMs + STILL_IN_MIND_MS)) return row;
    const shown = screen.text.split('\n').join(' · ');
    const fact = `On screen: ${shown.length > MAX_SCREEN_FACT ? `${shown.slice(0, MAX_SCREEN_FACT - 1)}…` : shown}`;
    const facts = row.observed_facts_json ? (JSON.parse(row.observed_facts_json) as string[]) : [];
    return { ...row, page_title: row.page_title ?? screen.prominent, observed_facts_json: JSON.stringify([...facts, fact]) };
  });
}
