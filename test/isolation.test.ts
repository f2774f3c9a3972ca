import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './helpers/service.ts';
import { ownerWithProject, validScript } from './helpers/fixtures.ts';
import { expandPath, pathParams } from '../core/registry.ts';
import { toolError } from './helpers/mcp.ts';

/**
 * Tenant isolation over every project route, generated from the registry: people and agents
 * of organization B never reach organization A's project, on REST or MCP, whatever the route.
 */
let svc: TestService;
let a: Awaited<ReturnType<typeof ownerWithProject>>;
let b: Awaited<ReturnType<typeof ownerWithProject>>;
let bMember: { token: string };
let bAgent: string;

beforeAll(async () => {
  svc = await startTestService();
  a = await ownerWithProject(svc, 'tenant-a@example.com', 'Alpha');
  b = await ownerWithProject(svc, 'tenant-b@example.com', 'Beta');
  await a.call('POST', '/studies', { title: 'Secret study', script: validScript });
  bMember = await svc.login('tenant-b-member@example.com');
  await svc.api('POST', `/api/orgs/${b.orgHandle}/members`, { token: b.token, body: { email: 'tenant-b-member@example.com' } });
  // An agent claimed by B's member, with write access (the strongest agent there is).
  const reg = await svc.api('POST', '/agent/auth', { body: { type: 'anonymous', requested_credential_type: 'api_key' } });
  await svc.services.db.pool.query(
    `UPDATE agent_registrations SET status = 'claimed', user_id = (SELECT id FROM users WHERE email = 'tenant-b-member@example.com') WHERE id = $1`,
    [reg.body.registration_id],
  );
  await svc.services.db.pool.query(`UPDATE agent_credentials SET scopes = '{agent:read,agent:write}' WHERE registration_id = $1`, [reg.body.registration_id]);
  bAgent = reg.body.credential;
});
afterAll(() => svc?.stop());

const sample: Record<string, string> = { studyId: 'secret-study', sessionId: 'int_x', signalId: 'sig_x', taskId: 'tsk_x', findingRef: 'fnd_x', screenerId: 'itk_x', questionId: 'itq_x', responseId: 'itr_x', uploadId: 'upl_x', candidateId: 'rec_x', type: 'audio', chunkIndex: '0', timestampMs: '0', artifact: 'audio', invitationId: 'inv_x', userId: 'usr_x' };

describe('tenant isolation', () => {
  it('answers no project route of A to B\'s owner, member or agent, on REST', async () => {
    const caps = svc.catalog.capabilities.filter((c) => c.access === 'project' && c.rest);
    expect(caps.length).toBeGreaterThan(60);
    for (const token of [b.token, bMember.token, bAgent]) {
      for (const cap of caps) {
        let path = expandPath(cap.rest!.path).replace(':orgHandle', a.orgHandle).replace(':projectHandle', a.project.handle);
        for (const p of pathParams(path)) path = path.replace(`:${p}`, sample[p] ?? 'x');
        const res = await svc.api(cap.rest!.method, path, { token, body: cap.rest!.method === 'GET' || cap.rest!.method === 'DELETE' ? undefined : {} });
        expect([400, 403, 404], `${cap.name} ${res.status} ${JSON.stringify(res.body)}`).toContain(res.status);
        if (res.status === 403) expect(res.body.code, cap.name).toMatch(/agent_write_not_permitted|role_required/);
        expect(JSON.stringify(res.body), cap.name).not.toMatch(/Secret study|Alpha/);
      }
    }
    // The same reads answer A's own owner.
    expect((await a.call('GET', '/studies')).body.studies.map((s: any) => s.title)).toContain('Secret study');
  });

  it('answers none of A\'s project tools to B over MCP', async () => {
    const tools = svc.catalog.capabilities.filter((c) => c.access === 'project' && c.mcp);
    for (const token of [b.token, bAgent]) {
      const mcp = await svc.mcp(token);
      for (const cap of tools) {
        const args: Record<string, unknown> = { projectRef: a.project.project_ref };
        for (const p of Object.keys(cap.input.shape)) if (sample[p]) args[p] = /Ms$|Index$/.test(p) ? 0 : sample[p];
        // Refused either as a tool error (400 or 404, as on REST) or by the scope gate (-31003).
        const res = await mcp.callTool({ name: cap.name, arguments: args }).catch((e: { code: number; message: string }) => e);
        if ('code' in res) expect(res.code, `${cap.name} ${res.message}`).toBe(-31003);
        else expect([400, 403, 404], `${cap.name} ${JSON.stringify(res)}`).toContain(toolError(res).status);
        expect(JSON.stringify(res), cap.name).not.toMatch(/Secret study|Alpha/);
      }
    }
  });
});
