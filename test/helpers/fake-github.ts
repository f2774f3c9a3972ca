import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { jwtVerify } from 'jose';

export interface FakeGithub {
  url: string;
  appId: string;
  privateKeyPem: string;
  issues: Array<{ id: number; number: number; owner: string; repo: string; title: string; body: string; labels: string[]; state: string; state_reason: string | null; html_url: string }>;
  /** Statuses answered to the next issue creations before one succeeds. */
  failNext: number[];
  requests: string[];
  close(): Promise<void>;
}

/**
 * A GitHub-compatible REST server on loopback: app JWTs are verified with the app's public
 * key, installation tokens minted and required, issues kept in memory.
 */
export async function fakeGithub(): Promise<FakeGithub> {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const state: FakeGithub = {
    url: '',
    appId: '4242',
    privateKeyPem: privateKey.export({ type: 'pkcs1', format: 'pem' }).toString(),
    issues: [],
    failNext: [],
    requests: [],
    close: async () => {},
  };
  const appJwtValid = async (auth: string | undefined, key: KeyObject) => {
    const token = auth?.replace(/^bearer /i, '') ?? '';
    try {
      const { payload } = await jwtVerify(token, key, { algorithms: ['RS256'] });
      return String(payload.iss) === state.appId;
    } catch {
      return false;
    }
  };
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', async () => {
      const json = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      const url = new URL(req.url ?? '/', 'http://x');
      state.requests.push(`${req.method} ${url.pathname}`);
      const auth = req.headers.authorization;
      let m: RegExpExecArray | null;
      if ((m = /^\/app\/installations\/(\d+)\/access_tokens$/.exec(url.pathname)) && req.method === 'POST') {
        if (!(await appJwtValid(auth, publicKey))) return json(401, { message: 'bad app jwt' });
        return json(201, { token: `ghs_inst_${m[1]}`, expires_at: new Date(Date.now() + 3600_000).toISOString(), permissions: { issues: 'write' }, repository_selection: 'selected' });
      }
      if ((m = /^\/app\/installations\/(\d+)$/.exec(url.pathname))) {
        if (!(await appJwtValid(auth, publicKey))) return json(401, { message: 'bad app jwt' });
        return json(200, { id: Number(m[1]), account: { login: 'acme', type: 'Organization' } });
      }
      // A person's own token sees the installations they manage: `ghu_<login>` manages installation 77 when login is acme.
      const person = /^(?:token|bearer) ghu_(\w+)$/i.exec(auth ?? '');
      if (url.pathname === '/user/installations') {
        if (!person) return json(401, { message: 'user token required' });
        const mine = person[1] === 'acme' ? [{ id: 77, account: { login: 'acme' } }] : [];
        return json(200, { total_count: mine.length, installations: mine });
      }
      const installation = /^(?:token|bearer) ghs_inst_(\d+)$/i.exec(auth ?? '');
      if (url.pathname === '/installation/repositories') {
        if (!installation) return json(401, { message: 'installation token required' });
        return json(200, { total_count: 2, repositories: [{ full_name: 'acme/shop', default_branch: 'trunk', private: true, html_url: `${state.url}/acme/shop` }, { full_name: 'acme/site', default_branch: 'main', private: false, html_url: `${state.url}/acme/site` }] });
      }
      if ((m = /^\/repos\/([^/]+)\/([^/]+)\/issues$/.exec(url.pathname)) && req.method === 'POST') {
        if (!installation) return json(401, { message: 'installation token required' });
        const fail = state.failNext.shift();
        if (fail) return json(fail, { message: 'try later' });
        const body = JSON.parse(raw) as { title: string; body: string; labels?: string[] };
        const number = state.issues.length + 1;
        const issue = { id: 9000 + number, number, owner: m[1], repo: m[2], title: body.title, body: body.body, labels: body.labels ?? [], state: 'open', state_reason: null, html_url: `${state.url}/${m[1]}/${m[2]}/issues/${number}` };
        state.issues.push(issue);
        return json(201, issue);
      }
      if ((m = /^\/repos\/([^/]+)\/([^/]+)\/issues\/(\d+)$/.exec(url.pathname))) {
        const issue = state.issues.find((i) => i.number === Number(m![3]));
        return issue ? json(200, issue) : json(404, { message: 'Not Found' });
      }
      json(404, { message: 'Not Found' });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () => new Promise((r) => server.close(() => r()));
  return state;
}
