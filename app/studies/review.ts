import { useEffect, useMemo, useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, data } from '../api.ts';
import { scriptOf, type Draft } from './draft.ts';

export interface Issue {
  code: string;
  message: string;
  field: string;
  severity: 'error' | 'warning';
}

/** A question the guide asks only on some answers, after the question it follows. */
export interface Branch {
  after: string;
  when: string;
  question: string;
}

/** What the review says about each segment (by editor key): its issues by field, and the conductor's questions. */
export interface Review {
  bySegment: Map<string, { issues: Issue[]; questions: string[] | null; branches: Branch[] }>;
  general: Issue[];
  valid: boolean;
}

function useDebounced<T>(value: T, ms: number): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setV(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return v;
}

/** POST P/studies/validate-script on the draft, a moment after the author stops typing. */
export function useScriptReview(org: string, project: string, draft: Draft | null) {
  // Debounced as text: a new object each render would restart the timer forever.
  const json = useDebounced(draft ? JSON.stringify({ script: scriptOf(draft), keys: draft.segments.map((s) => s.key) }) : null, 400);
  const snapshot = useMemo(() => (json ? (JSON.parse(json) as { script: ReturnType<typeof scriptOf>; keys: string[] }) : null), [json]);
  const query = useQuery({
    queryKey: ['validate-script', org, project, snapshot?.script],
    enabled: !!snapshot,
    placeholderData: keepPreviousData,
    queryFn: async () => {
      const result = data(
        await api.POST('/api/orgs/{orgHandle}/projects/{projectHandle}/studies/validate-script', {
          params: { path: { orgHandle: org, projectHandle: project } },
          body: { script: snapshot!.script as unknown as Record<string, never> },
        }),
      );
      return { result, snapshot: snapshot! };
    },
  });
  let review: Review | null = null;
  if (query.data) {
    const { result, snapshot: snap } = query.data;
    const bySegment: Review['bySegment'] = new Map(snap.keys.map((k) => [k, { issues: [], questions: null, branches: [] }]));
    const general: Issue[] = [];
    for (const [list, severity] of [[result.errors, 'error'], [result.warnings, 'warning']] as const) {
      for (const i of list) {
        const issue = { code: i.code, message: inEditorWords(i.message), field: i.field.replace(/^segments\[\d+\]\.?/, ''), severity };
        const key = i.segment_index !== null ? snap.keys[i.segment_index] : undefined;
        (key ? bySegment.get(key)!.issues : general).push(issue);
      }
    }
    // participant_questions follow the talk and observe segments in order.
    const listening = snap.script.segments.map((s, i) => ({ s, key: snap.keys[i] })).filter((x) => x.s.mode !== 'speak');
    result.participant_questions.forEach((q, n) => {
      const key = listening[n]?.key;
      if (key) Object.assign(bySegment.get(key)!, { questions: q.questions, branches: q.if_answered });
    });
    review = { bySegment, general, valid: result.valid };
  }
  return { review, error: query.error, checking: query.isFetching };
}

/** A review message in the words of the editor's own fields, not the script's field names. */
const inEditorWords = (message: string) =>
  message
    .replace(/\ba segment's conductor_context\b/g, 'a segment\'s "Context for the conductor"')
    .replace(/\bconductor_context\b/g, '"Context for the conductor"')
    .replace(/\bspeak_text\b/g, '"What the conductor says"')
    .replace(/\bparticipant_questions\b/g, 'the questions listed under each part');
