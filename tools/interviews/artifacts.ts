import fs from 'node:fs';
import { pipeline } from 'node:stream/promises';
import type { Sql } from '../../core/tx.ts';
import { artifacts } from './rows.ts';
import type { Services } from '../../core/context.ts';
import type { ArtifactRow } from '../../models/index.ts';
import { newId } from '../../core/ids.ts';
import { MediaMissingError } from '../../core/storage/index.ts';
import { StepFailure } from './pipeline.ts';

export function interviewPrefix(projectId: string, interviewId: string): string {
  return `projects/${projectId}/interviews/${interviewId}`;
}

export function artifactKey(projectId: string, interviewId: string, file: string): string {
  return `${interviewPrefix(projectId, interviewId)}/${file}`;
}

/** Records (or replaces) an interview artifact whose object is already in storage. */
export async function recordArtifact(
  services: Services,
  interviewId: string,
  a: { name: string; kind: string; storage_key: string; mime_type: string; size: number; meta?: Record<string, unknown> | null },
  sql: Sql = services.db.pool,
): Promise<ArtifactRow> {
  const [existing] = await artifacts.select(sql, 'interview_id = $1 AND name = $2', [interviewId, a.name]);
  if (existing) {
    if (existing.storage_key !== a.storage_key) await services.storage.delete(existing.storage_key).catch(() => {});
    return artifacts.save(sql, existing, { kind: a.kind, storage_key: a.storage_key, mime_type: a.mime_type, size: a.size, meta: a.meta ?? null });
  }
  return artifacts.insert(sql, { id: newId('art'), interview_id: interviewId, meta: null, ...a });
}

/** Uploads a local file into the interview's storage folder. */
export async function storeFile(services: Services, projectId: string, interviewId: string, file: string, name: string, mime: string) {
  return services.storage.put(artifactKey(projectId, interviewId, name), fs.createReadStream(file), mime);
}

/** Copies a stored object to a local file for a processing step; a missing object fails the step as media_missing. */
export async function downloadTo(services: Services, key: string, file: string, name = key.split('/').pop()): Promise<void> {
  let body;
  try {
    body = await services.storage.get(key);
  } catch (err) {
    if (!(err instanceof MediaMissingError)) throw err;
    const missing = new MediaMissingError(`The stored file ${name} of this interview`);
    throw new StepFailure('media_missing', missing.message, { retryable: false, action: missing.action });
  }
  await pipeline(body, fs.createWriteStream(file));
}

/** Removes the interview's artifacts of a kind that a step's new run did not produce again, with their stored objects. */
export async function dropStaleArtifacts(services: Services, interviewId: string, kind: string, kept: string[], sql: Sql = services.db.pool): Promise<void> {
  for (const a of await artifacts.select(sql, 'interview_id = $1 AND kind = $2', [interviewId, kind])) {
    if (kept.includes(a.name)) continue;
    await sql.query('DELETE FROM interview_artifacts WHERE id = $1', [a.id]);
    await services.storage.delete(a.storage_key).catch(() => {});
  }
}
