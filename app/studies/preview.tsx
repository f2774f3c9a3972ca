import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { api, data } from '../api.ts';
import { Problem } from '../shell.tsx';
import { useStudies } from '../pages/studies.tsx';
import type { Study } from './draft.ts';

type Rule = { effect: string; match: string; pathname: string };

/** Why a study's own rules offer it on a page (mirrors tools/studies/placement.ts). */
function whyMatched(study: Study, pathname: string): string {
  const vis = study.visibility as { rules?: Rule[]; priority?: number } | null;
  if (!vis) return 'It has no page rules, so it is offered on every page where no study targets the page.';
  const p = pathname.length > 1 ? pathname.replace(/\/+$/, '') || '/' : pathname;
  const under = (root: string) => root === '/' || p === root || p.startsWith(root + '/');
  const hit = (vis.rules ?? []).find((r) => r.effect === 'include' && r.match === 'exact' && r.pathname === p) ?? (vis.rules ?? []).find((r) => r.effect === 'include' && r.match === 'subtree' && under(r.pathname));
  const rule = hit ? (hit.match === 'exact' ? `its rule includes exactly ${hit.pathname}` : `its rule includes ${hit.pathname} and the pages below it`) : 'its rules include this page';
  return `It is active and ${rule} (priority ${vis.priority ?? 0}), ahead of any other study here.`;
}

const UNAVAILABLE: Record<string, string> = {
  inactive: 'targets this page but is not active: activate it to show it here.',
  capacity_reached: 'targets this page, but its intake is closed or full.',
  configuration_invalid: 'targets this page, but its invitation or page rules are invalid.',
  runtime_unavailable: 'targets this page, but the service cannot run it right now.',
};

/** Which study a page gets and why, and the real widget on the demo page for that path. */
export function PagePreview({ org, project, initialPath, reloads }: { org: string; project: string; initialPath: string; reloads: number }) {
  const path = { orgHandle: org, projectHandle: project };
  const [input, setInput] = useState(initialPath);
  const [pathname, setPathname] = useState(initialPath);
  const studies = useStudies(org, project);
  const setup = useQuery({ queryKey: ['widget-setup', org, project], queryFn: async () => data(await api.GET('/api/orgs/{orgHandle}/projects/{projectHandle}/widget-setup', { params: { path } })) });
  const placement = useQuery({
    queryKey: ['resolve-preview', org, project, pathname, reloads],
    queryFn: async () => data(await api.POST('/api/orgs/{orgHandle}/projects/{projectHandle}/studies/resolve-preview', { params: { path }, body: { pathname } })),
  });
  const title = (ref: string | undefined) => studies.data?.find((s) => s.ref === ref)?.title ?? ref ?? 'A study';
  const r = placement.data;
  const matched = r?.outcome === 'match' ? studies.data?.find((s) => s.ref === r.study_ref) : undefined;
  return (
    <section aria-labelledby="preview" className="panel stack">
      <h2 id="preview">Preview a page</h2>
      <form
        className="row nowrap"
        onSubmit={(e) => {
          e.preventDefault();
          setPathname(input.trim() || '/');
        }}
      >
        <label className="row nowrap grow">
          <span>Page to preview</span>
          <input value={input} onChange={(e) => setInput(e.target.value)} placeholder="/checkout" />
        </label>
        <button type="submit">Preview</button>
      </form>
      <Problem error={placement.error ?? setup.error} />
      {r ? (
        <div className="placement" role="status" data-outcome={r.outcome}>
          {r.outcome === 'match' ? (
            <p>
              <strong>{r.study_title}</strong> appears on <code>{pathname}</code>. {matched ? whyMatched(matched, pathname) : null}
            </p>
          ) : r.outcome === 'no_match' ? (
            <p>
              No study appears on <code>{pathname}</code>: no active study is offered there.
            </p>
          ) : r.outcome === 'ambiguous' ? (
            <p>
              No study appears on <code>{pathname}</code>: {(r.ambiguous_study_refs ?? []).map(title).join(' and ')} tie at the same priority. Give one a higher priority or narrower rules.
            </p>
          ) : (
            <p>
              No study appears on <code>{pathname}</code>: <strong>{title(r.study_ref)}</strong> {UNAVAILABLE[r.reason ?? ''] ?? r.reason}
            </p>
          )}
        </div>
      ) : null}
      <p className="muted small">Below, the real widget on the demo page at this path: it shows the study the page gets, so only active studies appear. It reloads after each save.</p>
      {setup.data ? (
        <iframe
          key={`${pathname} ${reloads}`}
          className="widget-preview"
          title={`The widget on ${pathname}`}
          src={`/sdk/demo?key=${encodeURIComponent(setup.data.public_key)}&path=${encodeURIComponent(pathname)}`}
        />
      ) : null}
    </section>
  );
}
