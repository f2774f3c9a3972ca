import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { decodeJwt } from 'jose';
import { startTestService, type TestService } from './helpers/service.ts';
import { ownerWithProject } from './helpers/fixtures.ts';
import { createOAuth } from '../auth/oauth/provider.ts';

let svc: TestService;
let owner: Awaited<ReturnType<typeof ownerWithProject>>;

beforeAll(async () => {
  svc = await startTestService();
  // Access tokens that expire in two seconds, so a test can see the client refresh.
  const shortLived = createOAuth(svc.services, { accessTokenTTL: 2 });
  svc.services.oauth = () => shortLived;
  owner = await ownerWithProject(svc, 'sdk-oauth@example.com', 'Research');
});
afterAll(() => svc?.stop());

/** The MCP SDK's own OAuth client, with the browser step played by the test. */
class TestProvider implements OAuthClientProvider {
  info?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = '';
  authorizationUrl?: URL;
  redirects = 0;
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
    this.redirects++;
  }
  saveCodeVerifier(v: string) {
    this.verifier = v;
  }
  codeVerifier() {
    return this.verifier;
  }
}

/** The person signs in and approves in a browser; returns the code the redirect carries. */
async function approveInBrowser(provider: TestProvider): Promise<string> {
  const cookies = new Map<string, string>();
  const keep = (res: Response) => {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      cookies.set(pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1));
    }
  };
  const start = await fetch(provider.authorizationUrl!, { redirect: 'manual' });
  keep(start);
  const uid = start.headers.get('location')!.split('/').pop()!;
  const decided = await svc.api('POST', '/api/oauth/authorize/decision', { token: owner.token, body: { request: uid, decision: 'approve' } });
  const back = await fetch(new URL(decided.body.redirect_to, svc.url), { redirect: 'manual', headers: { cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; ') } });
  return new URL(back.headers.get('location')!).searchParams.get('code')!;
}

/** Runs the SDK's flow up to a connected client. */
async function connectWithOAuth(provider: TestProvider) {
  const url = new URL(`${svc.url}/mcp`);
  const first = new Client({ name: 'sdk', version: '1' });
  await expect(first.connect(new StreamableHTTPClientTransport(url, { authProvider: provider }))).rejects.toBeInstanceOf(UnauthorizedError);
  expect(provider.info?.client_id).toBeTruthy();
  expect(provider.authorizationUrl!.searchParams.get('resource')).toBe(`${svc.url}/mcp`);
  const code = await approveInBrowser(provider);
  expect(code).toBeTruthy();
  const transport = new StreamableHTTPClientTransport(url, { authProvider: provider });
  await transport.finishAuth(code);
  expect(provider.saved?.access_token).toBeTruthy();
  const client = new Client({ name: 'sdk', version: '1' });
  await client.connect(transport);
  return client;
}

describe('the MCP SDK client connects with its own OAuth support', () => {
  it('discovers, registers, is sent to consent, finishes with the code and calls tools', async () => {
    const client = await connectWithOAuth(new TestProvider());
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('projects.get');
    const got = await client.callTool({ name: 'projects.get', arguments: { projectRef: owner.project.project_ref } });
    expect((got.structuredContent as any).project.handle).toBe('research');
    await client.close();
  });

  it('asks for offline access, gets a refresh token, refreshes without a browser once the access token expires, and the old refresh token stops working', async () => {
    const provider = new TestProvider();
    const client = await connectWithOAuth(provider);
    // The SDK requested the protected resource's advertised scopes, offline_access among them.
    expect(provider.authorizationUrl!.searchParams.get('scope')!.split(' ')).toContain('offline_access');
    const before = provider.saved!;
    expect(before.refresh_token).toBeTruthy();
    const redirects = provider.redirects;

    const exp = decodeJwt(before.access_token).exp!;
    while (Date.now() / 1000 < exp + 1) await new Promise((r) => setTimeout(r, 250));
    const expired = await fetch(`${svc.url}/mcp`, { method: 'POST', headers: { authorization: `Bearer ${before.access_token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) });
    expect(expired.status).toBe(401);

    const got = await client.callTool({ name: 'projects.get', arguments: { projectRef: owner.project.project_ref } });
    expect((got.structuredContent as any).project.handle).toBe('research');
    expect(provider.redirects).toBe(redirects);
    expect(provider.saved!.access_token).not.toBe(before.access_token);
    expect(provider.saved!.refresh_token).toBeTruthy();
    expect(provider.saved!.refresh_token).not.toBe(before.refresh_token);
    await client.close();

    const replay = await fetch(`${svc.url}/api/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: before.refresh_token!, client_id: provider.info!.client_id }),
    });
    expect(replay.status).toBe(400);
    expect(((await replay.json()) as { error: string }).error).toBe('invalid_grant');
  });
});
