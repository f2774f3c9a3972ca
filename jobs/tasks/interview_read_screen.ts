import fs from 'node:fs/promises';
import path from 'node:path';
import type { TaskFactory } from '../runner.ts';
import { runStep } from '../../tools/interviews/steps.ts';
import { afterMedia } from '../../tools/interviews/pipeline.ts';
import { downloadTo, dropStaleArtifacts, recordArtifact, storeFile } from '../../tools/interviews/artifacts.ts';
import { screenReader } from '../../tools/interviews/ocr.ts';
import { tools } from '../../tools/interviews/media.ts';
import { artifacts } from '../../tools/interviews/rows.ts';

/**
 * OCR of the representative frames: each frame with text gets a `screen-text-N` artifact (the
 * text as a file, its lines, most prominent line and timestamp in meta) that evidence
 * extraction uses as page context. Reading the screen is an extra: when it fails the
 * interview goes on to transcription with a warning, never fails.
 */
// Numbers count however short: "Record 2" is another screen than "Record 1".
const wordsOf = (lines: string[]) => new Set(lines.join(' ').toLowerCase().match(/[\p{L}\p{N}]{2,}|\p{N}/gu) ?? []);
/** Nine in ten of the words of either frame are in the other: OCR noise ("search" / "Search", a cursor) aside, the same text. */
function sameScreen(a: Set<string>, b: Set<string>): boolean {
  const shared = [...a].filter((w) => b.has(w)).length;
  return shared >= 0.9 * Math.max(a.size, b.size);
}

export const task: TaskFactory = (services) => async (payload, helpers) => {
  const { interviewId } = payload as { interviewId: string };
  await runStep(services, interviewId, 'reading_screen', helpers, async ({ interview, scratch, warn }) => {
    const dir = await scratch();
    const frames = (await artifacts.select(services.db.pool, 'interview_id = $1 AND kind = $2', [interview.id, 'frame'])).sort(
      (a, b) => Number(a.meta?.timestamp_ms ?? 0) - Number(b.meta?.timestamp_ms ?? 0),
    );
    const stored: Array<Parameters<typeof recordArtifact>[2]> = [];
    const unread: string[] = [];
    // A frame that reads as the one before it (a video's keyframe refresh scores as a change) is the same screen again.
    const repeats: string[] = [];
    let before: Set<string> | null = null;
    let reader: Awaited<ReturnType<typeof screenReader>> | null = null;
    try {
      reader = await screenReader({ ffmpeg: tools(services.config).ffmpeg });
      for (const frame of frames) {
        try {
          const file = path.join(dir, `${frame.name}.jpg`);
          await downloadTo(services, frame.storage_key, file, frame.name);
          const { lines, prominent } = await reader.read(file);
          if (!lines.length) continue;
          const words = wordsOf(lines);
          if (before && sameScreen(before, words)) {
            repeats.push(frame.name);
            // The screen before was showing until this one went.
            const last = stored.at(-1);
            if (last?.meta && typeof frame.meta?.until_ms === 'number') last.meta.until_ms = frame.meta.until_ms;
            continue;
          }
          before = words;
          const name = frame.name.replace(/^frame-/, 'screen-text-');
          const text = path.join(dir, `${name}.txt`);
          await fs.writeFile(text, `${lines.join('\n')}\n`);
          const obj = await storeFile(services, interview.project_id, interview.id, text, name, 'text/plain; charset=utf-8');
          stored.push({ name, kind: 'screen_text', storage_key: obj.key, mime_type: 'text/plain; charset=utf-8', size: obj.size, meta: { timestamp_ms: frame.meta?.timestamp_ms ?? null, until_ms: frame.meta?.until_ms ?? null, frame: frame.name, text: lines.join('\n'), prominent_line: prominent } });
        } catch (err) {
          unread.push(`${frame.name} (${err instanceof Error ? err.message : String(err)})`);
        }
      }
    } catch (err) {
      unread.push(`all frames (${err instanceof Error ? err.message : String(err)})`);
    } finally {
      await reader?.close().catch(() => {});
    }
    if (unread.length) {
      await warn({ code: 'screen_text_unread', message: `The text on screen could not be read from ${unread.join('; ')}; evidence has no on-screen context from those moments`, action: 'Nothing to do for the interview; re-upload the recording to try again' });
    }
    return {
      finish: async (sql) => {
        // Text read by an earlier run of this step is replaced, not mixed with this one.
        await dropStaleArtifacts(services, interview.id, 'screen_text', stored.map((a) => a.name), sql);
        if (repeats.length) await dropStaleArtifacts(services, interview.id, 'frame', frames.map((f) => f.name).filter((n) => !repeats.includes(n)), sql);
        // A frame whose screen showed on through the repeats says so too, as its screen text does.
        for (const a of stored) {
          if (typeof a.meta?.until_ms === 'number') {
            await sql.query(`UPDATE interview_artifacts SET meta = jsonb_set(coalesce(meta, '{}'), '{until_ms}', to_jsonb($3::bigint)) WHERE interview_id = $1 AND name = $2 AND kind = 'frame'`, [interview.id, a.meta.frame, a.meta.until_ms]);
          }
        }
        for (const a of stored) await recordArtifact(services, interview.id, a, sql);
        return afterMedia(sql, interview.id);
      },
    };
  });
};
