import { useInfiniteQuery, useMutation, useQuery, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { api, data } from '../../api.ts';
import type { components } from '../../api-types.ts';
import type { SignalType } from '../../../tools/evidence/types.ts';

export type Signal = components['schemas']['Signal'];
type Page = { signals: Signal[]; total: number };
export type Filters = { type?: string; surface?: string; interview?: string; dismissed: boolean; q?: string };

/** The API's largest page: fewer round trips when a long queue is scrolled to its end. */
export const PAGE = 200;

const base = (org: string, project: string) => ['signals', org, project] as const;

/** The queue, a page at a time as the list scrolls. */
export function useQueue(org: string, project: string, f: Filters) {
  const path = { orgHandle: org, projectHandle: project };
  return useInfiniteQuery({
    queryKey: [...base(org, project), 'queue', f],
    initialPageParam: 0,
    queryFn: async ({ pageParam }) =>
      data(
        await api.GET('/api/orgs/{orgHandle}/projects/{projectHandle}/signals', {
          params: {
            path,
            query: {
              type: f.type as never,
              target_surface: f.surface as never,
              session_id: f.interview,
              search: f.q,
              dismissed: f.dismissed,
              limit: PAGE,
              offset: pageParam,
            },
          },
        }),
      ),
    getNextPageParam: (last, pages, offset) => (offset + last.signals.length < last.total && last.signals.length ? offset + last.signals.length : undefined),
    // A long queue is not refetched page by page in the background; mutations patch it in place.
    staleTime: 60_000,
    refetchOnWindowFocus: false,
  });
}

export function useCard(org: string, project: string, id: string | undefined) {
  return useQuery({
    queryKey: [...base(org, project), 'card', id],
    enabled: !!id,
    queryFn: async () =>
      data(await api.GET('/api/orgs/{orgHandle}/projects/{projectHandle}/signals/{signalId}', { params: { path: { orgHandle: org, projectHandle: project, signalId: id! } } })).signal,
  });
}

export function useInterviews(org: string, project: string) {
  return useQuery({
    queryKey: ['sessions', org, project, 'names'],
    queryFn: async () => data(await api.GET('/api/orgs/{orgHandle}/projects/{projectHandle}/sessions', { params: { path: { orgHandle: org, projectHandle: project }, query: { limit: 200 } } })).sessions,
  });
}

export function useDraftFindings(org: string, project: string, enabled: boolean) {
  return useQuery({
    queryKey: ['findings', org, project, 'drafts'],
    enabled,
    queryFn: async () =>
      data(await api.GET('/api/orgs/{orgHandle}/projects/{projectHandle}/findings', { params: { path: { orgHandle: org, projectHandle: project }, query: { research_state: 'draft', limit: 200 } } }))
        .findings,
  });
}

/** Puts a changed card back into every loaded queue page and its detail, so the list keeps its place. */
function usePatchCard(org: string, project: string) {
  const client = useQueryClient();
  return (signal: Signal) => {
    client.setQueriesData<InfiniteData<Page>>({ queryKey: [...base(org, project), 'queue'] }, (old) =>
      old ? { ...old, pages: old.pages.map((p) => ({ ...p, signals: p.signals.map((s) => (s.id === signal.id ? { ...s, ...pick(signal) } : s)) })) } : old,
    );
    client.invalidateQueries({ queryKey: [...base(org, project), 'card', signal.id] });
    client.invalidateQueries({ queryKey: [...base(org, project), 'home'] });
  };
}

const pick = (s: Signal): Partial<Signal> => ({
  signal_type: s.signal_type,
  headline: s.headline,
  claim: s.claim,
  review_status: s.review_status,
  review_note: s.review_note,
  dismissed_at: s.dismissed_at,
  dismissed_reason: s.dismissed_reason,
  annotation_text: s.annotation_text,
  annotation_at: s.annotation_at,
});

/** What a researcher corrects on a card: its type, headline and claim. */
export type Correction = { signal_type?: SignalType; headline?: string | null; claim?: string | null };
type Action = { id: string } & ({ kind: 'review' } | { kind: 'restore' } | { kind: 'dismiss'; reason: string } | { kind: 'annotate'; text: string } | { kind: 'edit'; fields: Correction });

/** Review, dismiss, restore, annotate or correct one card. */
export function useCardAction(org: string, project: string) {
  const patch = usePatchCard(org, project);
  return useMutation({
    mutationFn: async (a: Action) => {
      const path = { orgHandle: org, projectHandle: project, signalId: a.id };
      const P = '/api/orgs/{orgHandle}/projects/{projectHandle}/signals/{signalId}' as const;
      if (a.kind === 'review') return data(await api.POST(`${P}/review`, { params: { path }, body: { review_status: 'reviewed' } })).signal;
      if (a.kind === 'restore') return data(await api.POST(`${P}/undismiss`, { params: { path } })).signal;
      if (a.kind === 'dismiss') return data(await api.POST(`${P}/dismiss`, { params: { path }, body: { reason: a.reason } })).signal;
      if (a.kind === 'edit') return data(await api.PATCH(P, { params: { path }, body: a.fields })).signal;
      return data(await api.POST(`${P}/annotate`, { params: { path }, body: { text: a.text } })).signal;
    },
    onSuccess: patch,
  });
}

/** Adds a card to a draft finding, or makes a new finding from it. */
export function useAddToFinding(org: string, project: string) {
  const client = useQueryClient();
  const path = { orgHandle: org, projectHandle: project };
  return useMutation({
    mutationFn: async (a: { id: string; finding: string } | { id: string; title: string }) => {
      if ('finding' in a)
        return data(await api.PATCH('/api/orgs/{orgHandle}/projects/{projectHandle}/findings/{findingRef}', { params: { path: { ...path, findingRef: a.finding } }, body: { add_evidence: [a.id] } })).finding;
      return data(await api.POST('/api/orgs/{orgHandle}/projects/{projectHandle}/findings/from-evidence', { params: { path }, body: { title: a.title, evidence_refs: [a.id] } })).finding;
    },
    onSuccess: () => client.invalidateQueries({ queryKey: ['findings', org, project] }),
  });
}
