import type { Services } from '../../core/context.ts';
import type { InterviewRow, Role } from '../../models/index.ts';
import { iso, isoRequired } from '../common.ts';
import { orgRecord, orgsOf } from '../orgs/record.ts';
import { projectRecord } from '../projects/record.ts';
import { projectStudies, studyRecord } from '../studies/record.ts';
import { intakeRecord, questionRecord, responseRecord, questionsOf } from '../intakes/record.ts';
import { intakeResponses, intakes as intakeRows } from '../intakes/rows.ts';
import { sessionRecord } from '../interviews/record.ts';
import { signalRecord } from '../evidence/record.ts';
import { projectSignals } from '../evidence/rows.ts';
import { findingRecord, findings as findingRows } from '../findings/record.ts';
import { taskRecord, tasks as taskRows } from '../work/record.ts';
import { artifacts as artifactRows, interviews, mediaChunks } from '../interviews/rows.ts';
import { projects as projectRows, type ProjectRow } from '../projects/record.ts';

/** One JSON file of the archive. */
export interface ExportFile {
  name: string;
  data: unknown;
}

export interface ProjectPlace {
  orgHandle: string;
  role: Role;
  project: ProjectRow;
}

export const COUNTED = ['organizations', 'projects', 'studies', 'intakes', 'intake_responses', 'interviews', 'transcript_segments', 'signals', 'findings', 'tasks', 'media_files'] as const;
export type Counts = Record<(typeof COUNTED)[number], number>;

function groupBy<T>(rows: T[], key: (row: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const group = groups.get(key(row));
    if (group) group.push(row);
    else groups.set(key(row), [row]);
  }
  return groups;
}

export function zeroCounts(): Counts {
  return Object.fromEntries(COUNTED.map((k) => [k, 0])) as Counts;
}

/** The profile and organizations, and every project of those organizations. */
export async function userFiles(services: Services, userId: string, counts: Counts): Promise<{ profile: { email: string }; files: ExportFile[]; projects: ProjectPlace[] }> {
  const { pool } = services.db;
  const { rows: users } = await pool.query(
    `SELECT u.id, u.email, u.name, u.is_admin, u.created_at, o.handle AS personal_org_handle
       FROM users u LEFT JOIN organizations o ON o.id = u.personal_org_id WHERE u.id = $1`,
    [userId],
  );
  const { rows: identities } = await pool.query(`SELECT provider, login, created_at FROM user_identities WHERE user_id = $1 ORDER BY provider`, [userId]);
  const profile = { ...users[0], created_at: isoRequired(users[0].created_at), identities: identities.map((i) => ({ provider: i.provider, login: i.login, linked_at: isoRequired(i.created_at) })) };
  const orgs = await orgsOf(services, userId);
  const projects: ProjectPlace[] = [];
  for (const org of orgs) {
    const rows = await projectRows.select(services.db.pool, 'organization_id = $1', [org.id], 'ORDER BY created_at');
    projects.push(...rows.map((project) => ({ orgHandle: org.handle, role: org.role, project })));
  }
  counts.organizations = orgs.length;
  counts.projects = projects.length;
  return {
    profile,
    files: [
      { name: 'profile.json', data: profile },
      { name: 'organizations.json', data: orgs.map((o) => ({ ...orgRecord(o, o.role), projects: projects.filter((p) => p.orgHandle === o.handle).map((p) => p.project.handle) })) },
    ],
    projects,
  };
}

/** Signed links to an interview's stored media; nothing is copied into the archive. */
async function mediaOf(services: Services, interview: InterviewRow, ttlSeconds: number) {
  const { storage, db } = services;
  const [stored, chunks] = await Promise.all([
    artifactRows.select(db.pool, 'interview_id = $1', [interview.id], 'ORDER BY name'),
    mediaChunks.select(db.pool, 'interview_id = $1', [interview.id], 'ORDER BY type, chunk_index'),
  ]);
  const items = [
    ...stored.map((a) => ({ name: a.name, kind: a.kind, key: a.storage_key, mime_type: a.mime_type, size: Number(a.size) })),
    ...chunks.map((c) => ({ name: `${c.type}-chunk-${c.chunk_index}`, kind: `${c.type}_chunk`, key: c.storage_key, mime_type: c.mime_type, size: Number(c.size) })),
  ];
  const expiresAt = new Date(Date.now() + ttlSeconds * 1000).toISOString();
  const out = [];
  for (const { key, ...item } of items) {
    const available = (await storage.head(key)) !== null;
    out.push({ ...item, available, url: available ? await storage.signedUrl(key, ttlSeconds) : null, expires_at: available ? expiresAt : null });
  }
  return out;
}

async function interviewFile(services: Services, interview: InterviewRow, ref: string, ttlSeconds: number, counts: Counts): Promise<ExportFile> {
  const { pool } = services.db;
  const [segments, messages, events, media] = await Promise.all([
    pool.query(`SELECT idx, speaker, role, start_ms, end_ms, text FROM transcript_segments WHERE interview_id = $1 ORDER BY idx`, [interview.id]),
    pool.query(`SELECT role, content, segment_id, timestamp_ms, created_at FROM interview_messages WHERE interview_id = $1 ORDER BY timestamp_ms, id`, [interview.id]),
    pool.query(`SELECT event_type, timestamp_ms, event_line, data, created_at FROM interview_events WHERE interview_id = $1 ORDER BY timestamp_ms, id`, [interview.id]),
    mediaOf(services, interview, ttlSeconds),
  ]);
  counts.transcript_segments += segments.rows.length;
  counts.media_files += media.length;
  const stamped = (rows: Array<{ created_at: Date }>) => rows.map((r) => ({ ...r, created_at: iso(r.created_at) }));
  return {
    name: `interviews/${interview.id}.json`,
    data: { session: sessionRecord(interview, ref), transcript: segments.rows, messages: stamped(messages.rows), events: stamped(events.rows), media },
  };
}

/** A project's files, one at a time, so no more than one file is held in memory. */
export async function* projectFiles(services: Services, place: ProjectPlace, ttlSeconds: number, counts: Counts): AsyncGenerator<ExportFile> {
  const { db } = services;
  const { project, orgHandle, role } = place;
  const ref = `${orgHandle}/${project.handle}`;

  yield { name: 'project.json', data: projectRecord(project, { handle: orgHandle, role }) };

  const studies = await projectStudies(db.pool, project.id);
  counts.studies += studies.length;
  yield { name: 'studies.json', data: studies.map((s) => studyRecord(s, ref)) };

  const intakes = [];
  for (const intake of await intakeRows.select(db.pool, 'project_id = $1', [project.id], 'ORDER BY created_at ASC')) {
    const questions = await questionsOf(intake.id, db.pool);
    const responses = await intakeResponses.select(db.pool, 'intake_id = $1', [intake.id], 'ORDER BY created_at ASC');
    counts.intake_responses += responses.length;
    intakes.push({ ...intakeRecord(intake, ref), questions: questions.map(questionRecord), responses: responses.map(responseRecord) });
  }
  counts.intakes += intakes.length;
  yield { name: 'intakes.json', data: intakes };

  const { rows: interviewIds } = await db.pool.query<{ id: string }>(`SELECT id FROM interviews WHERE project_id = $1 ORDER BY created_at, id`, [project.id]);
  for (const { id } of interviewIds) {
    const [interview] = await interviews.select(db.pool, 'id = $1', [id]);
    if (!interview) continue;
    counts.interviews++;
    yield await interviewFile(services, interview, ref, ttlSeconds, counts);
  }

  const signals = await projectSignals(db.pool, project.id);
  counts.signals += signals.length;
  yield { name: 'signals.json', data: signals.map((s) => signalRecord(s, ref)) };

  const { rows: findingLinks } = await db.pool.query<{ finding_id: string; signal_id: string; dismissed: boolean; interview_id: string }>(
    `SELECT fe.finding_id, fe.signal_id, s.dismissed_at IS NOT NULL AS dismissed, s.interview_id
       FROM finding_evidence fe JOIN findings f ON f.id = fe.finding_id JOIN signals s ON s.id = fe.signal_id WHERE f.project_id = $1`,
    [project.id],
  );
  const byFinding = groupBy(findingLinks, (l) => l.finding_id);
  const findings = await findingRows.select(db.pool, 'project_id = $1', [project.id], 'ORDER BY created_at, id');
  counts.findings += findings.length;
  yield {
    name: 'findings.json',
    data: findings.map((f) => {
      const links = byFinding.get(f.id) ?? [];
      const active = links.filter((l) => !l.dismissed);
      return { ...findingRecord(f, ref, { evidence: active.length, interviews: new Set(active.map((l) => l.interview_id)).size }), evidence_ids: links.map((l) => l.signal_id) };
    }),
  };

  const { rows: taskLinks } = await db.pool.query<{ task_id: string; signal_id: string }>(
    `SELECT l.task_id, l.signal_id FROM signal_task_links l JOIN tasks t ON t.id = l.task_id WHERE t.project_id = $1`,
    [project.id],
  );
  const byTask = groupBy(taskLinks, (l) => l.task_id);
  const tasks = await taskRows.select(db.pool, 'project_id = $1', [project.id], 'ORDER BY created_at, id');
  counts.tasks += tasks.length;
  yield {
    name: 'tasks.json',
    data: tasks.map((t) => {
      const evidence = (byTask.get(t.id) ?? []).map((l) => l.signal_id);
      return { ...taskRecord(t, ref, evidence.length), evidence_ids: evidence };
    }),
  };
}
