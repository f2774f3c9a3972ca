import type { TestService } from './service.ts';

export const validScript = {
  version: 2,
  goals: [{ id: 'g1', description: 'Understand onboarding' }],
  segments: [
    { id: 'hello', mode: 'speak', title: 'Hello', speak_text: 'Welcome, thanks for joining.' },
    { id: 'ask', mode: 'talk', title: 'Ask', instruction: 'Ask about the last time they signed up.', conductor_context: 'Serves g1' },
  ],
};

export const validInvitation = {
  launcher: { label: 'Give feedback', icon: 'feedback', style: 'calm', shape: 'capsule' },
  panel: {
    eyebrow: 'Research',
    headline: 'Help us improve checkout',
    body: 'A ten minute conversation about how you pay.',
    duration_minutes: 10,
    reward: { kind: 'gift', label: '$20 gift card', eligibility: 'Customers in the US', delivery: 'By e-mail within a week' },
    cta: 'Start',
    image: { asset_id: 'img-1', url: 'https://cdn.example.com/img.png', alt: 'A person at a laptop' },
  },
  presentation_mode: 'contextual',
  brand_color: { light: '#112233', dark: '#AABBCC' },
  foreground_color: '#FFFFFF',
  placement: { desktop: 'bottom-right', mobile: 'bottom-left' },
};

export function visibility(rules: Array<[string, string, string]>, extra: Record<string, unknown> = {}) {
  return { version: 1, enabled: true, rules: rules.map(([effect, match, pathname]) => ({ effect, match, pathname })), ...extra };
}

/** A signed-in owner with one project; returns helpers bound to that project's path. */
export async function ownerWithProject(svc: TestService, email: string, name = 'Research') {
  const user = await svc.login(email);
  const res = await svc.api('POST', `/api/orgs/${user.orgHandle}/projects`, { token: user.token, body: { name } });
  const project = res.body.project;
  const P = `/api/orgs/${user.orgHandle}/projects/${project.handle}`;
  const call = (method: string, path: string, body?: unknown) => svc.api(method, `${P}${path}`, { token: user.token, body });
  return { ...user, project, P, call };
}

/** Posts a multipart form with the owner's token. */
export async function postForm(svc: TestService, token: string, path: string, body: FormData | string, headers: Record<string, string> = {}) {
  const res = await fetch(svc.url + path, { method: 'POST', headers: { authorization: `Bearer ${token}`, ...headers }, body });
  const text = await res.text();
  let parsed: any = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    /* keep text */
  }
  return { status: res.status, body: parsed };
}

/** Polls an interview's processing until it settles (processed or failed). */
export async function settled(call: (method: string, path: string, body?: unknown) => Promise<{ status: number; body: any }>, sessionId: string, timeoutMs = 45_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const res = await call('GET', `/sessions/${sessionId}/processing`);
    if (res.body.status === 'processed' || res.body.status === 'failed') return res.body;
    if (Date.now() > until) throw new Error(`processing did not settle: ${JSON.stringify(res.body)}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

/** Imports a labelled fixture transcript and waits until its evidence exists. */
export async function importedInterview(svc: TestService, o: Awaited<ReturnType<typeof ownerWithProject>>, file: string, extra: Record<string, string> = {}) {
  const { form } = await import('./media.ts');
  const { FIXTURES } = await import('./extractor-eval.ts');
  const res = await postForm(svc, o.token, `${o.P}/sessions/import-transcript`, form({ transcript: { file: `${FIXTURES}/${file}`, type: 'text/plain' }, ...extra }));
  if (res.status !== 201) throw new Error(`import ${file}: ${res.status} ${JSON.stringify(res.body)}`);
  await settled(o.call, res.body.session.id);
  return res.body.session.id as string;
}

/** Imports transcript text through REST, waits until it is processed, and returns the interview id. */
export async function importedText(svc: TestService, o: Awaited<ReturnType<typeof ownerWithProject>>, name: string, text: string): Promise<string> {
  const { form } = await import('./media.ts');
  const res = await postForm(svc, o.token, `${o.P}/sessions/import-transcript`, form({ transcript: { buffer: Buffer.from(text), filename: name, type: 'text/plain' } }));
  if (res.status !== 201) throw new Error(`import ${name}: ${res.status} ${JSON.stringify(res.body)}`);
  const status = await settled(o.call, res.body.session.id);
  if (status.status !== 'processed') throw new Error(`import ${name} did not process: ${JSON.stringify(status)}`);
  return res.body.session.id as string;
}
