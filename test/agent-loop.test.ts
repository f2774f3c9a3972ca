import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { startTestService, type TestService } from './helpers/service.ts';
import { importedInterview, ownerWithProject } from './helpers/fixtures.ts';
import { CaseFile } from '../tools/evidence/record.ts';

let svc: TestService;
let mcp: Client;

beforeAll(async () => {
  svc = await startTestService({ env: { WORKER: 'on' } });
  const o = await ownerWithProject(svc, 'agent-loop@example.com', 'Checkout');
  await importedInterview(svc, o, 'checkout.txt');
  await importedInterview(svc, o, 'support.json');
  mcp = await svc.mcp(o.token);
});
afterAll(() => svc?.stop());

const call = async (name: string, args: Record<string, unknown>) => {
  const res = await mcp.callTool({ name, arguments: args });
  expect(res.isError, name).toBeFalsy();
  return res.structuredContent as any;
};

describe('an agent runs the research loop with nothing but MCP', () => {
  it('offers the tools agents expect', async () => {
    const names = (await mcp.listTools()).tools.map((t) => t.name);
    for (const expected of [
      'organizations.list', 'projects.list', 'projects.create', 'studies.list', 'studies.get', 'studies.get_results', 'studies.create',
      'studies.update', 'studies.validate_script', 'interviews.list', 'interviews.get_context', 'interviews.processing_status',
      'interviews.retry_processing', 'evidence.list', 'evidence.get', 'evidence.update', 'findings.list', 'findings.get_evidence',
      'findings.create_from_evidence', 'findings.update', 'work.list', 'work.create_from_evidence', 'settings.set_config',
      'projects.delete', 'studies.delete', 'evidence.delete', 'work.delete', 'findings.delete', 'interviews.delete',
    ]) expect(names, expected).toContain(expected);
    const uris = (await mcp.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate);
    expect(uris).toEqual(expect.arrayContaining(['service://organizations', 'service://projects', 'service://projects/{orgHandle}/{projectHandle}/evidence/{signalId}/case-file', 'service://projects/{orgHandle}/{projectHandle}/interviews/{sessionId}/transcript']));
    const prompts = (await mcp.listPrompts()).prompts.map((p) => p.name);
    expect(prompts).toEqual(expect.arrayContaining(['synthesise-findings', 'review-evidence', 'plan-next-study']));
  });

  it('finds the project, reads evidence, builds a finding and a work item, and reviews the finding', async () => {
    const orgs = await call('organizations.list', {});
    const projects = await call('projects.list', { orgHandle: orgs.organizations[0].handle });
    const projectRef = projects.projects[0].project_ref;
    const overview = JSON.parse(((await mcp.readResource({ uri: 'service://projects' })).contents[0] as { text: string }).text);
    expect(overview.projects.map((p: any) => p.project_ref)).toContain(projectRef);

    const interviews = await call('interviews.list', { projectRef });
    expect(interviews.total).toBe(2);
    const status = await call('interviews.processing_status', { projectRef, sessionId: interviews.sessions[0].id });
    expect(status.status).toBe('processed');

    const struggles = await call('evidence.list', { projectRef, type: 'struggling_moment' });
    expect(struggles.total).toBeGreaterThanOrEqual(3);
    expect(struggles.signals.length).toBeLessThanOrEqual(20);
    const first = struggles.signals[0];
    const card = await call('evidence.get', { projectRef, signalId: first.id });
    expect(CaseFile.safeParse(card.signal.case_file).success).toBe(true);
    const caseFileUri = `service://projects/${projectRef}/evidence/${first.id}/case-file`;
    const fromResource = JSON.parse(((await mcp.readResource({ uri: caseFileUri })).contents[0] as { text: string }).text);
    expect(fromResource).toEqual(card.signal.case_file);
    const around = await call('interviews.get_context', { projectRef, sessionId: first.session_id, timestamp_ms: first.timestamp_ms ?? 0 });
    expect(around.segments.map((s: any) => s.text).join(' ')).toContain(first.quote);
    const transcript = (await mcp.readResource({ uri: `service://projects/${projectRef}/interviews/${first.session_id}/transcript` })).contents[0] as { text: string };
    expect(transcript.text).toContain(first.quote);

    const picked = struggles.signals.slice(0, 2).map((s: any) => s.id);
    const finding = (await call('findings.create_from_evidence', { projectRef, title: 'People cannot find what they need at the moment they need it', evidence_refs: picked })).finding;
    expect(finding).toMatchObject({ research_state: 'draft', evidence_count: 2 });

    const work = (await call('work.create_from_evidence', { projectRef, signal_ids: picked, finding_id: finding.finding_ref, title: 'Surface discount and help entry points' })).task;
    expect(work).toMatchObject({ review_packet: true, evidence_count: 2, finding_ref: finding.finding_ref });

    const more = struggles.signals[2].id;
    await call('evidence.update', { projectRef, signalId: more, annotation: 'Same problem, support flow' });
    await call('findings.update', { projectRef, findingRef: finding.finding_ref, add_evidence: [more] });
    const linked = await mcp.callTool({ name: 'evidence.link', arguments: { projectRef, signalId: more, task_id: work.id } });
    expect((linked.structuredContent as any).signal.linked_task.id).toBe(work.id);

    const evidence = await call('findings.get_evidence', { projectRef, findingRef: finding.finding_ref });
    expect(evidence.evidence.map((e: any) => e.id).sort()).toEqual([...picked, more].sort());
    const reviewed = (await call('findings.update', { projectRef, findingRef: finding.finding_ref, research_state: 'reviewed' })).finding;
    expect(reviewed).toMatchObject({ research_state: 'reviewed', evidence_count: 3, delivery_state: 'not_sent' });
    expect((await call('findings.list', { projectRef, research_state: 'reviewed' })).findings.map((f: any) => f.finding_ref)).toEqual([finding.finding_ref]);
    expect((await call('work.list', { projectRef })).tasks.map((t: any) => t.id)).toEqual([work.id]);

    const studies = await call('studies.list', { projectRef });
    const results = await call('studies.get_results', { projectRef, studyId: studies.studies[0].handle });
    expect(results.study_ref).toBe(studies.studies[0].ref);
    const prompt = await mcp.getPrompt({ name: 'synthesise-findings', arguments: { projectRef } });
    expect((prompt.messages[0].content as { text: string }).text).toContain('findings.create_from_evidence');
  });
});
