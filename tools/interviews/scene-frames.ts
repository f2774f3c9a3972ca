import fs from 'node:fs';
import path from 'node:path';
import { run } from './media.ts';

/**
 * A screen whose picture changed at least this much (ffmpeg's scene score, 0..1) shows something new: a page, a dialog, a
 * scroll. Far below the 0.3 of camera cuts: a new page of small text on the same layout scores about 0.003-0.005, while a
 * still screen's encoding noise stays near 0.0001.
 */
const SCENE_CHANGE = 0.002;
/** Representative frames kept per minute of video, the most changed first. */
export const FRAMES_PER_MINUTE = 10;
/**
 * A screen shown for less than this is on its way to another (a spinner, "Loading…", a cross-fade, a page half drawn):
 * nobody reads it, and a frame of it would hide the page that follows.
 */
const MIN_SHOWN_SECONDS = 0.8;
/** A screen is read this long after it appears (or just before it goes), once it has finished drawing. */
const SETTLE_SECONDS = 1;

export interface SceneFrame {
  file: string;
  /** When the screen appeared. */
  timestampMs: number;
  /** When it gave way to another screen (read or not), or the video ended. */
  untilMs: number;
}

/** A frame as ffmpeg's metadata filter printed it: "frame:N pts:P pts_time:T", then its "lavfi.scene_score=S". */
interface PrintedFrame {
  pts: number;
  t: number;
  score: number;
}

/** A screen as shown: when it appeared, the frame to read it from, and how much the picture changed when it appeared. */
interface Screen {
  shownAt: number;
  goneAt: number;
  readPts: number;
  readAt: number;
  score: number;
}

function printedFrames(file: string): PrintedFrame[] {
  const frames: PrintedFrame[] = [];
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    const time = /pts:(-?\d+)\s+pts_time:(-?[\d.]+)/.exec(line);
    if (time) frames.push({ pts: Number(time[1]), t: Number(time[2]), score: 0 });
    const score = /lavfi\.scene_score=([\d.]+)/.exec(line);
    if (score && frames.length) frames[frames.length - 1].score = Number(score[1]);
  }
  return frames;
}

/**
 * The screens worth reading, from every frame of a video and its scene score: a screen starts at the first frame or a
 * scene change and counts when it is shown at least MIN_SHOWN_SECONDS; it is read from its last frame by SETTLE_SECONDS
 * after it appeared (or just before it goes). At most FRAMES_PER_MINUTE a minute, the biggest changes kept. When nothing
 * stays still that long (a video playing), the first frame.
 */
function settledScreens(frames: PrintedFrame[], durationSeconds: number | null): Screen[] {
  const starts = frames.flatMap((f, i) => (i === 0 || f.score > SCENE_CHANGE ? [i] : []));
  const end = durationSeconds ?? (frames.length ? frames[frames.length - 1].t + MIN_SHOWN_SECONDS : 0);
  const screens: Screen[] = [];
  for (const [k, start] of starts.entries()) {
    const next = starts[k + 1] ?? frames.length;
    const shownAt = frames[start].t;
    const shown = (frames[next]?.t ?? end) - shownAt;
    if (shown < MIN_SHOWN_SECONDS) continue;
    const readAt = shownAt + Math.min(SETTLE_SECONDS, shown - 0.1);
    let read = start;
    while (read + 1 < next && frames[read + 1].t <= readAt) read++;
    screens.push({ shownAt, goneAt: shownAt + shown, readPts: frames[read].pts, readAt: frames[read].t, score: k === 0 ? 1 : frames[start].score });
  }
  if (!screens.length) return frames.length ? [{ shownAt: frames[0].t, goneAt: end, readPts: frames[0].pts, readAt: frames[0].t, score: 1 }] : [];
  // A screen shows until the next one that counts (read or not): a loading screen or a redraw on the way is not a screen of its own.
  for (const [k, s] of screens.entries()) s.goneAt = screens[k + 1]?.shownAt ?? end;
  const byMinute = new Map<number, Screen[]>();
  for (const s of screens) {
    const minute = Math.floor(s.shownAt / 60);
    byMinute.set(minute, [...(byMinute.get(minute) ?? []), s]);
  }
  const kept = [...byMinute.values()].flatMap((list) => list.sort((a, b) => b.score - a.score).slice(0, FRAMES_PER_MINUTE));
  return kept.sort((a, b) => a.shownAt - b.shownAt);
}

/**
 * Representative frames of a video: one of each screen it shows for a moment (see settledScreens), read once it has
 * settled and dated when it appeared. Two passes: the first scores every frame for change, the second writes the
 * chosen frames. A recording that only has frames when something changes, as browsers record screens, is read from
 * the frame each screen appeared with. Frames are JPEGs at most 1920 pixels wide: a full-HD screen recording keeps its
 * own pixels, since its 12–13 px type shrunk to 1280 (8–9 px) is read far worse (docs/performance.md, "OCR quality").
 */
export async function sceneFrames(ffmpeg: string, input: string, dir: string, durationSeconds: number | null): Promise<SceneFrame[]> {
  // Relative names, run in `dir`, spare escaping a path inside the filter graph. Every frame passes the first select
  // (its scene term is what prints each frame's score); the first frame has no score to compare.
  await run(ffmpeg, [
    '-v', 'error', '-y', '-i', input, '-an',
    '-vf', `select='eq(n\\,0)+gte(scene\\,0)',metadata=mode=print:file=frames.txt`, '-f', 'null', '-',
  ], undefined, dir);
  const screens = settledScreens(printedFrames(path.join(dir, 'frames.txt')), durationSeconds);
  if (!screens.length) return [];
  // A script file, not an argument: a long recording's expression outgrows a command line.
  const scale = `scale='min(1920\\,iw)':-2`;
  fs.writeFileSync(path.join(dir, 'grab.filter'), `select='${screens.map((s) => `eq(pts\\,${s.readPts})`).join('+')}',${scale}`);
  const pattern = path.join(dir, 'screen-%d.jpg');
  await run(ffmpeg, ['-v', 'error', '-y', '-i', input, '-an', '-filter_script:v', 'grab.filter', '-vsync', 'vfr', '-q:v', '3', pattern], undefined, dir);
  // Files are matched to screens by their order: when one is missing (two frames with one pts), each is taken by its time.
  const written = fs.readdirSync(dir).filter((f) => /^screen-\d+\.jpg$/.test(f)).length;
  if (written !== screens.length) {
    for (const [i, s] of screens.entries()) {
      await run(ffmpeg, ['-v', 'error', '-y', '-ss', s.readAt.toFixed(3), '-i', input, '-an', '-frames:v', '1', '-vf', scale, '-q:v', '3', pattern.replace('%d', String(i + 1))], undefined, dir);
    }
  }
  return screens
    .map((s, i) => ({ file: pattern.replace('%d', String(i + 1)), timestampMs: Math.round(s.shownAt * 1000), untilMs: Math.round(s.goneAt * 1000) }))
    .filter((f) => fs.existsSync(f.file));
}
