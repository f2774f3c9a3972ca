import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeLinear {
  url: string;
  token: string;
  webhooks: Array<Record<string, unknown>>;
  issues: Array<{ id: string; identifier: string; url: string; teamId: string; title: string; description: string; stateId: string | null; state: { name: string; type: string } }>;
  close(): Promise<void>;
}

const TEAMS = [
  { id: 'team_triage', key: 'TRI', name: 'Growth', triageEnabled: true, states: [{ id: 'st_tri', name: 'Triage', type: 'triage', position: 0 }, { id: 'st_back', name: 'Backlog', type: 'backlog', position: 1 }, { id: 'st_done', name: 'Done', type: 'completed', position: 5 }] },
  { id: 'team_plain', key: 'PLN', name: 'Platform', triageEnabled: false, states: [{ id: 'st_todo', name: 'Todo', type: 'unstarted', position: 2 }, { id: 'st_plain_back', name: 'Backlog', type: 'backlog', position: 1 }] },
];

/** A Linear-compatible OAuth and GraphQL server on loopback, answering the operations Verbatim sends. */
export async function fakeLinear(): Promise<FakeLinear> {
  const state: FakeLinear = { url: '', token: 'lin_oauth_token', webhooks: [], issues: [], close: async () => {} };
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const json = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      const url = new URL(req.url ?? '/', 'http://x');
      if (url.pathname === '/oauth/token' && req.method === 'POST') {
        const form = new URLSearchParams(raw);
        if (form.get('grant_type') !== 'authorization_code' || form.get('code') !== 'good-code' || !form.get('code_verifier')) return json(400, { error: 'invalid_grant' });
        return json(200, { access_token: state.token, token_type: 'Bearer', expires_in: 3600, scope: 'read,write' });
      }
      if (url.pathname !== '/graphql') return json(404, { error: 'not found' });
      if (req.headers.authorization !== `Bearer ${state.token}`) return json(401, { errors: [{ message: 'Authentication required' }] });
      const { query, variables } = JSON.parse(raw) as { query: string; variables: Record<string, any> };
      const op = /(?:query|mutation)\s+(\w+)/.exec(query)?.[1];
      const data = (d: unknown) => json(200, { data: d });
      switch (op) {
        case 'VerbatimWorkspace':
          return data({ organization: { id: 'lin_org_1', name: 'Acme' } });
        case 'VerbatimWebhookCreate':
          state.webhooks.push(variables.input);
          return data({ webhookCreate: { success: true, webhook: { id: `wh_${state.webhooks.length}` } } });
        case 'VerbatimWebhookDelete':
          return data({ webhookDelete: { success: true } });
        case 'VerbatimTeams':
          return data({ teams: { nodes: TEAMS.map(({ states: _s, ...t }) => t) } });
        case 'VerbatimTeamStates': {
          const team = TEAMS.find((t) => t.id === variables.id);
          return team ? data({ team: { key: team.key, triageEnabled: team.triageEnabled, states: { nodes: team.states } } }) : json(200, { errors: [{ message: 'Entity not found' }] });
        }
        case 'VerbatimIssueCreate': {
          const input = variables.input as { teamId: string; title: string; description: string; stateId?: string };
          const team = TEAMS.find((t) => t.id === input.teamId)!;
          const st = team.states.find((s) => s.id === input.stateId) ?? team.states[0];
          const n = state.issues.length + 1;
          const issue = { id: `iss_${n}`, identifier: `${team.key}-${n}`, url: `${state.url}/issue/${team.key}-${n}`, teamId: team.id, title: input.title, description: input.description, stateId: input.stateId ?? null, state: { name: st.name, type: st.type } };
          state.issues.push(issue);
          return data({ issueCreate: { success: true, issue: { id: issue.id, identifier: issue.identifier, url: issue.url, state: { name: st.name } } } });
        }
        case 'VerbatimIssue': {
          const issue = state.issues.find((i) => i.id === variables.id);
          return issue ? data({ issue: { state: issue.state } }) : json(200, { errors: [{ message: 'Entity not found' }] });
        }
        default:
          return json(400, { errors: [{ message: `unknown operation ${op}` }] });
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () => new Promise((r) => server.close(() => r()));
  return state;
}
