import type { Services } from '../../core/context.ts';
import type { ProjectRow } from '../projects/record.ts';
import { codehostClient, providerError, trackerClient, trackerQuery } from './apps.ts';
import { requireConnection } from './tracker-connection.ts';

export type Provider = 'github' | 'linear';
/** Where a provider's issue stands, in our words. */
export type Category = 'triage' | 'accepted' | 'in_progress' | 'completed' | 'declined' | 'duplicate';

export interface CreatedIssue {
  issue_id: string;
  issue_number: number | null;
  issue_url: string;
  issue_state: string;
  target: string;
  placement: 'triage' | 'backlog_fallback';
}

/** Code-host issues have no triage: they land open in the repository, labelled for us. The project is checked to have one (send.ts). */
async function createGithubIssue(services: Services, project: ProjectRow, draft: { title: string; body: string }): Promise<CreatedIssue> {
  const repoSlug = project.codehost_repo_url!;
  const [owner, repo] = repoSlug.split('/');
  try {
    const { data } = await (await codehostClient(services, project.codehost_installation_id!)).rest.issues.create({ owner, repo, title: draft.title, body: draft.body, labels: ['verbatim'] });
    return { issue_id: String(data.id), issue_number: data.number, issue_url: data.html_url, issue_state: data.state, target: repoSlug, placement: 'backlog_fallback' };
  } catch (err) {
    throw providerError('codehost', err);
  }
}

/** Tracker issues go to the team's triage when it has one, else to its backlog. The project is checked to have a team (send.ts). */
async function createLinearIssue(services: Services, project: ProjectRow, draft: { title: string; body: string }): Promise<CreatedIssue> {
  const client = await trackerClient(services, (await requireConnection(services, project.organization_id)).token);
  const { team } = await trackerQuery<{ team: { key: string; triageEnabled: boolean; states: { nodes: Array<{ id: string; type: string; position: number }> } } }>(
    client,
    `query VerbatimTeamStates($id: String!) { team(id: $id) { key triageEnabled states { nodes { id type position } } } }`,
    { id: project.tracker_team_id! },
  );
  const states = [...team.states.nodes].sort((a, b) => a.position - b.position);
  const triage = team.triageEnabled ? states.find((s) => s.type === 'triage') : undefined;
  const target = triage ?? states.find((s) => s.type === 'backlog');
  const { issueCreate } = await trackerQuery<{ issueCreate: { success: boolean; issue: { id: string; identifier: string; url: string; state: { name: string } } | null } }>(
    client,
    `mutation VerbatimIssueCreate($input: IssueCreateInput!) { issueCreate(input: $input) { success issue { id identifier url state { name } } } }`,
    { input: { teamId: project.tracker_team_id!, title: draft.title, description: draft.body, ...(target ? { stateId: target.id } : {}) } },
  );
  if (!issueCreate.success || !issueCreate.issue) throw providerError('tracker', Object.assign(new Error('refused'), { status: 422 }));
  const i = issueCreate.issue;
  return { issue_id: i.id, issue_number: null, issue_url: i.url, issue_state: i.state.name, target: team.key, placement: triage ? 'triage' : 'backlog_fallback' };
}

export function createIssue(services: Services, provider: Provider, project: ProjectRow, draft: { title: string; body: string }): Promise<CreatedIssue> {
  return provider === 'github' ? createGithubIssue(services, project, draft) : createLinearIssue(services, project, draft);
}

/** The provider's current state of an issue, read live. */
export async function readIssue(services: Services, provider: Provider, project: ProjectRow, issueId: string, issueNumber: number | null): Promise<{ state: string; category: Category }> {
  if (provider === 'github') {
    const [owner, repo] = (project.codehost_repo_url ?? '/').split('/');
    try {
      const { data } = await (await codehostClient(services, project.codehost_installation_id ?? undefined)).rest.issues.get({ owner, repo, issue_number: issueNumber ?? 0 });
      return { state: data.state, category: githubCategory(data.state, data.state_reason ?? null) };
    } catch (err) {
      throw providerError('codehost', err);
    }
  }
  const client = await trackerClient(services, (await requireConnection(services, project.organization_id)).token);
  const { issue } = await trackerQuery<{ issue: { state: { name: string; type: string } } }>(client, `query VerbatimIssue($id: String!) { issue(id: $id) { state { name type } } }`, { id: issueId });
  return { state: issue.state.name, category: linearCategory(issue.state.type, issue.state.name) };
}

export function githubCategory(state: string, reason: string | null): Category {
  if (state !== 'closed') return 'triage';
  if (reason === 'not_planned') return 'declined';
  if (reason === 'duplicate') return 'duplicate';
  return 'completed';
}

export function linearCategory(type: string, name: string): Category {
  if (type === 'triage') return 'triage';
  if (type === 'started') return 'in_progress';
  if (type === 'completed') return 'completed';
  if (type === 'canceled') return /duplicate/i.test(name) ? 'duplicate' : 'declined';
  return 'accepted';
}
