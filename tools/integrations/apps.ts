import type { Octokit } from '@octokit/rest';
import type { LinearClient } from '@linear/sdk';
import type { Services } from '../../core/context.ts';
import { AppError, UnavailableError } from '../../core/errors.ts';
import { lazyModule } from '../../core/lazy.ts';

/** The providers' SDKs load at the first call (the tracker's alone is ~12 MiB of heap). */
export const octokitModule = lazyModule(() => import('@octokit/rest'));
const appAuthModule = lazyModule(() => import('@octokit/auth-app'));
const linearModule = lazyModule(() => import('@linear/sdk'));

/** The code-host app (a GitHub App); unconfigured, 503 naming the settings. */
export function codehostApp(services: Services) {
  const i = services.config.integrations;
  if (!i.codehostAppId || !i.codehostAppPrivateKey || !i.codehostAppSlug) {
    throw new UnavailableError('The code-host app is not configured on this server', {
      code: 'codehost_unconfigured',
      retryable: false,
      action: 'Set CODEHOST_APP_ID, CODEHOST_APP_PRIVATE_KEY and CODEHOST_APP_SLUG (and CODEHOST_API_URL for GitHub Enterprise)',
    });
  }
  return { appId: i.codehostAppId, privateKey: i.codehostAppPrivateKey, slug: i.codehostAppSlug, installUrl: `${i.codehostAppUrl}/apps/${i.codehostAppSlug}/installations/new`, apiUrl: services.config.linking.codehost.apiUrl };
}

/** Octokit acting as the app, or as one of its installations. */
export async function codehostClient(services: Services, installationId?: string): Promise<Octokit> {
  const app = codehostApp(services);
  const [{ Octokit }, { createAppAuth }] = await Promise.all([octokitModule(), appAuthModule()]);
  return new Octokit({
    baseUrl: app.apiUrl,
    authStrategy: createAppAuth,
    auth: { appId: app.appId, privateKey: app.privateKey, ...(installationId ? { installationId } : {}) },
    request: { timeout: 10_000 },
    log: { debug() {}, info() {}, warn() {}, error() {} },
  });
}

/** The tracker OAuth app (Linear), shared with identity linking; unconfigured, 503 naming the settings. */
export function trackerApp(services: Services) {
  const app = services.config.linking.tracker;
  if (!app.clientId || !app.clientSecret) {
    throw new UnavailableError('The tracker integration is not configured on this server', {
      code: 'tracker_unconfigured',
      retryable: false,
      action: 'Set TRACKER_CLIENT_ID and TRACKER_CLIENT_SECRET (and TRACKER_API_URL for a self-hosted tracker)',
    });
  }
  return app;
}

export async function trackerClient(services: Services, accessToken: string): Promise<LinearClient> {
  const { LinearClient } = await linearModule();
  return new LinearClient({ accessToken, apiUrl: `${services.config.linking.tracker.apiUrl}/graphql` });
}

/** A GraphQL call through the tracker's own client; provider failures become our envelope. */
export async function trackerQuery<T>(client: LinearClient | Promise<LinearClient>, query: string, variables: Record<string, unknown> = {}): Promise<T> {
  const linear = await client;
  try {
    const res = await linear.client.rawRequest<T, Record<string, unknown>>(query, variables);
    return res.data as T;
  } catch (err) {
    throw providerError('tracker', err);
  }
}

/** HTTP status of a provider failure, when it has one. */
export const statusOf = (err: unknown): number | null => {
  const e = err as { status?: number; response?: { status?: number } };
  return e.status ?? e.response?.status ?? null;
};

/** 429 and 5xx (and no answer at all) are worth retrying; other refusals are not. */
export const retryableStatus = (status: number | null) => status === null || status === 429 || status >= 500;

export function providerError(provider: 'codehost' | 'tracker', err: unknown): AppError {
  if (err instanceof AppError) return err;
  const status = statusOf(err);
  const name = provider === 'codehost' ? 'code host' : 'tracker';
  return new AppError(502, status ? `The ${name} answered HTTP ${status}` : `The ${name} could not be reached`, {
    code: `${provider}_error`,
    retryable: retryableStatus(status),
    action: status === 401 || status === 403 ? `Reconnect the ${name} integration` : 'Try again shortly',
    details: { provider_status: status },
  });
}
