import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { startTestService, type TestService } from './helpers/service.ts';
import { ownerWithProject } from './helpers/fixtures.ts';

let svc: TestService;
let owner: Awaited<ReturnType<typeof ownerWithProject>>;

beforeAll(async () => {
  svc = await startTestService();
  owner = await ownerWithProject(svc, 'sdk-oauth@example.com', 'Research');
});
afterAll(() => svc?.stop());

/** The MCP SDK's own OAuth client, with the browser step played by the test. */
class TestProvider implements OAuthClientProvider {
  info?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = '';
  authorizationUrl?: URL;
  get redirectUrl() {
    return 'http://127.0.0.1:8977/callback';
  }
  get clientMetadata() {
    return { client_name: 'SDK client', redirect_uris: [this.redirectUrl], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' };
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(v: string) {
    this.verifier = v;
  }
  codeVerifier() {
    return this.verifier;
  }
}

describe('the MCP SDK client connects with its own OAuth support', () => {
  it('discovers, registers, is sent to consent, finishes with the code and calls tools', async () => {
    const provider = new TestProvider();
    const url = new URL(`${svc.url}/mcp`);
    const first = new Client({ name: 'sdk', version: '1' });
    await expect(first.connect(new StreamableHTTPClientTransport(url, { authProvider: provider }))).rejects.toBeInstanceOf(UnauthorizedError);
    expect(provider.info?.client_id).toBeTruthy();
    expect(provider.authorizationUrl!.searchParams.get('resource')).toBe(`${svc.url}/mcp`);

    // The person signs in and approves in a browser.
    const cookies = new Map<string, string>();
    const keep = (res: Response) => {
      for (const c of res.headers.getSetCookie()) {
        const [pair] = c.split(';');
        cookies.set(pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1));
      }
      return [...cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    };
    const start = await fetch(provider.authorizationUrl!, { redirect: 'manual' });
    keep(start);
    const uid = start.headers.get('location')!.split('/').pop()!;
    const decided = await svc.api('POST', '/api/oauth/authorize/decision', { token: owner.token, body: { request: uid, decision: 'approve' } });
    const back = await fetch(new URL(decided.body.redirect_to, svc.url), { redirect: 'manual', headers: { cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; ') } });
    const code = new URL(back.headers.get('location')!).searchParams.get('code')!;
    expect(code).toBeTruthy();

    const transport = new StreamableHTTPClientTransport(url, { authProvider: provider });
    await transport.finishAuth(code);
    expect(provider.saved?.access_token).toBeTruthy();
    const client = new Client({ name: 'sdk', version: '1' });
    await client.connect(transport);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('projects.get');
    const got = await client.callTool({ name: 'projects.get', arguments: { projectRef: owner.project.project_ref } });
    expect((got.structuredContent as any).project.handle).toBe('research');
    await client.close();
  });
});
