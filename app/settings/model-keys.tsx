import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, data } from '../api.ts';
import { Problem } from '../shell.tsx';
import { projectPath, when } from './paths.ts';

type Patch = { openai_api_key?: string | null; openai_base_url?: string | null; openai_model?: string | null; transcription_model?: string | null };

/** The project's model provider: a write-only key, its address and models, and whether the key works. */
export function ModelKeys({ org, project }: { org: string; project: string }) {
  const path = projectPath(org, project);
  const client = useQueryClient();
  const settings = useQuery({ queryKey: ['settings', org, project], queryFn: async () => data(await api.GET('/api/orgs/{orgHandle}/projects/{projectHandle}/settings', { params: { path } })) });
  const save = useMutation({
    mutationFn: async (body: Patch) => data(await api.PATCH('/api/orgs/{orgHandle}/projects/{projectHandle}/settings', { params: { path }, body })),
    onSuccess: (next) => {
      client.setQueryData(['settings', org, project], next);
      void client.invalidateQueries({ queryKey: ['key-health', org, project] });
    },
  });
  return (
    <section aria-labelledby="model-keys" className="panel stack settings">
      <h2 id="model-keys">Model keys</h2>
      <p className="muted small">An OpenAI-compatible provider for transcription, evidence extraction and the interviewer. Without a key the built-in local extractor is used.</p>
      <Problem error={settings.error} />
      {settings.data ? (
        <>
          <KeyForm stored={settings.data.settings.openai_api_key} save={save} />
          <ProviderForm initial={settings.data.settings} save={save} />
          <KeyHealth org={org} project={project} />
        </>
      ) : null}
    </section>
  );
}

type Save = { mutate: (body: Patch, opts?: { onSuccess?: () => void; onError?: (e: unknown) => void }) => void; isPending: boolean };

/** The key is never shown back: only its masked tail, and a field to replace or clear it. */
function KeyForm({ stored, save }: { stored: string | undefined; save: Save }) {
  const [key, setKey] = useState('');
  const [failed, setFailed] = useState<unknown>(null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setFailed(null);
    save.mutate({ openai_api_key: key }, { onSuccess: () => setKey(''), onError: setFailed });
  };
  const clear = () => {
    setFailed(null);
    save.mutate({ openai_api_key: null }, { onError: setFailed });
  };
  return (
    <form onSubmit={submit} className="stack" aria-label="Model key">
      <p>
        API key: <strong data-testid="stored-key">{stored ? `stored (${stored})` : 'not set'}</strong>
      </p>
      <label className="stack">
        <span>{stored ? 'Replace the API key' : 'API key'}</span>
        <input type="password" autoComplete="off" spellCheck={false} value={key} onChange={(e) => setKey(e.target.value)} />
      </label>
      <div className="row">
        <button type="submit" disabled={!key || save.isPending}>
          Save key
        </button>
        {stored ? (
          <button type="button" className="secondary" onClick={clear} disabled={save.isPending}>
            Remove key
          </button>
        ) : null}
      </div>
      <Problem error={failed} />
    </form>
  );
}

function ProviderForm({ initial, save }: { initial: Record<string, string>; save: Save }) {
  const [baseUrl, setBaseUrl] = useState(initial.openai_base_url ?? '');
  const [model, setModel] = useState(initial.openai_model ?? '');
  const [transcription, setTranscription] = useState(initial.transcription_model ?? '');
  const [failed, setFailed] = useState<unknown>(null);
  const [saved, setSaved] = useState(false);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setFailed(null);
    setSaved(false);
    // An emptied field removes the setting, so the server's default applies again.
    const body: Patch = { openai_base_url: baseUrl.trim() || null, openai_model: model.trim() || null, transcription_model: transcription.trim() || null };
    save.mutate(body, { onSuccess: () => setSaved(true), onError: setFailed });
  };
  return (
    <form onSubmit={submit} className="stack" aria-label="Provider">
      <label className="stack">
        <span>Provider address</span>
        <input type="url" inputMode="url" placeholder="https://api.openai.com/v1" value={baseUrl} onChange={(e) => setBaseUrl(e.target.value)} />
      </label>
      <div className="settings-pair">
        <label className="stack">
          <span>Chat model</span>
          <input value={model} onChange={(e) => setModel(e.target.value)} placeholder="Server default" />
        </label>
        <label className="stack">
          <span>Transcription model</span>
          <input value={transcription} onChange={(e) => setTranscription(e.target.value)} placeholder="Server default" />
        </label>
      </div>
      <div className="row">
        <button type="submit" disabled={save.isPending}>
          Save provider
        </button>
        <span role="status" className="muted">
          {saved ? 'Saved.' : ''}
        </span>
      </div>
      <Problem error={failed} />
    </form>
  );
}

function KeyHealth({ org, project }: { org: string; project: string }) {
  const path = projectPath(org, project);
  const client = useQueryClient();
  const health = useQuery({
    queryKey: ['key-health', org, project],
    queryFn: async () => data(await api.GET('/api/orgs/{orgHandle}/projects/{projectHandle}/settings/key-health', { params: { path } })),
  });
  const check = useMutation({
    mutationFn: async () => data(await api.GET('/api/orgs/{orgHandle}/projects/{projectHandle}/settings/key-health', { params: { path, query: { check: true } } })),
    onSuccess: (next) => client.setQueryData(['key-health', org, project], next),
  });
  const key = health.data?.keys.find((k) => k.key === 'openai_api_key');
  return (
    <div className="stack" aria-labelledby="key-health">
      <h3 id="key-health">Key health</h3>
      <p role="status" data-testid="key-health">
        {!key ? 'Checking…' : !key.configured ? 'No key is stored.' : healthWords(key)}
      </p>
      {key?.configured ? (
        <button type="button" className="secondary settings-fit" onClick={() => check.mutate()} disabled={check.isPending}>
          {check.isPending ? 'Checking…' : 'Check the key now'}
        </button>
      ) : null}
      <Problem error={health.error ?? check.error} />
    </div>
  );
}

function healthWords(k: { last_success_at: string | null; last_error_at: string | null; last_error: string | null }) {
  const ok = k.last_success_at ? Date.parse(k.last_success_at) : 0;
  const bad = k.last_error_at ? Date.parse(k.last_error_at) : 0;
  if (!ok && !bad) return 'Stored, not tried yet.';
  if (ok >= bad) return `Working: the provider accepted the key at ${when(k.last_success_at)}.`;
  return `Not working: ${k.last_error ?? 'the provider refused the key'} (${when(k.last_error_at)}).`;
}
