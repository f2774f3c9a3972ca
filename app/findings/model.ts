import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, data } from '../api.ts';
import type { components } from '../api-types.ts';

export type Finding = components['schemas']['Finding'];
export type ResearchState = Finding['research_state'];

export const STATES: ResearchState[] = ['draft', 'reviewed', 'closed'];
export const STATE_LABEL: Record<ResearchState, string> = { draft: 'Draft', reviewed: 'Reviewed', closed: 'Closed' };

/** The one forward move the API allows from each state (draft → reviewed → closed), with its button's words. */
export const NEXT: Record<ResearchState, { to: ResearchState; label: string } | null> = {
  draft: { to: 'reviewed', label: 'Mark reviewed' },
  reviewed: { to: 'closed', label: 'Close' },
  closed: null,
};

/** Scores that land in each label band (critical ≥ 80, high ≥ 60, medium ≥ 40, low below). */
export const PRIORITIES = [
  ['critical', 'Critical', 90],
  ['high', 'High', 70],
  ['medium', 'Medium', 50],
  ['low', 'Low', 20],
] as const;

export const DELIVERY_LABEL: Record<string, string> = {
  not_sent: 'Not sent',
  awaiting_product_triage: 'Awaiting product triage',
  accepted: 'Accepted',
  in_progress: 'In progress',
  completed: 'Completed',
  declined: 'Declined',
  duplicate: 'Duplicate',
};

export const path = (org: string, project: string) => ({ orgHandle: org, projectHandle: project });

/** Every query about a project's findings starts with this key, so one invalidation refreshes them all. */
export const findingsKey = (org: string, project: string) => ['findings', org, project] as const;

/** PATCH a finding (priority, state, evidence), then refresh every view of the project's findings. */
export function useUpdateFinding(org: string, project: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ ref, body }: { ref: string; body: { title?: string; description?: string | null; priority_score?: number; research_state?: ResearchState; add_evidence?: string[]; remove_evidence?: string[] } }) =>
      data(await api.PATCH('/api/orgs/{orgHandle}/projects/{projectHandle}/findings/{findingRef}', { params: { path: { ...path(org, project), findingRef: ref } }, body })).finding,
    // The board shows the answer at once (no stale counts on the way back to it); the refetch follows.
    onSuccess: (finding) =>
      client.setQueryData<{ findings: Finding[]; total: number }>([...findingsKey(org, project), 'board'], (old) =>
        old ? { ...old, findings: old.findings.map((f) => (f.finding_ref === finding.finding_ref ? finding : f)) } : old,
      ),
    onSettled: () => client.invalidateQueries({ queryKey: findingsKey(org, project) }),
  });
}
