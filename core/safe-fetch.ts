import dns from 'node:dns';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import type { Agent, RequestInit, Response } from 'undici';
import { AppError, DomainError } from './errors.ts';
import { lazyModule } from './lazy.ts';

/** undici (~5 MiB of heap) loads with the first outbound call: widget checks, previews, model endpoints. */
export const undici = lazyModule(() => import('undici'));

export interface SafeFetchOptions {
  /** Operators may allow loopback addresses (tests, local development); never private or metadata ones. */
  allowLoopback?: boolean;
  maxBytes?: number;
  timeoutMs?: number;
  maxRedirects?: number;
}

export interface Fetched {
  url: string;
  status: number;
  contentType: string;
  body: Buffer;
  truncated: boolean;
}

/** Only public unicast addresses (IPv4-mapped IPv6 judged as the IPv4 inside), loopback when allowed. */
export function addressAllowed(ip: string, allowLoopback = false): boolean {
  if (!ipaddr.isValid(ip)) return false;
  const addr = ipaddr.process(ip);
  const range = addr.range();
  // ipaddr.js calls deprecated IPv4-compatible addresses (::a.b.c.d, e.g. ::7f00:1) unicast; they embed an IPv4 address.
  if (range === 'unicast' && addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).parts.slice(0, 6).every((p) => p === 0)) return false;
  return range === 'unicast' || (allowLoopback && range === 'loopback');
}

/** Thrown when an address is internal (`code: url_not_allowed`). */
const refused = (what: string) =>
  new DomainError(`That address cannot be fetched: ${what}`, { code: 'url_not_allowed', action: 'Use a public http(s) address' });

/** DNS answers are checked at connect time, so a name cannot resolve to an internal address between check and use. */
function guardedLookup(allowLoopback: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { all: true, family: options.family ?? 0 }, (err, addresses) => {
      if (err) return (callback as (e: Error) => void)(err);
      if (!addresses.length || addresses.some((a) => !addressAllowed(a.address, allowLoopback))) {
        return (callback as (e: Error) => void)(refused(`${hostname} resolves to an internal address`));
      }
      if (options.all) (callback as (e: null, a: dns.LookupAddress[]) => void)(null, addresses);
      else callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

function checkUrl(raw: string, allowLoopback: boolean): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new AppError(400, 'url: must be an absolute http(s) URL', { code: 'invalid_url' });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw refused(`${url.protocol} is not http or https`);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (ipaddr.isValid(host) && !addressAllowed(host, allowLoopback)) throw refused(`${host} is an internal address`);
  return url;
}

/**
 * GET of an address a user gave us (SSRF-safe): http(s) only; loopback, private, link-local,
 * metadata and other non-public addresses refused for literals, for every DNS answer at
 * connect time, and again on every redirect hop; the body is capped in bytes and time.
 */
export async function safeFetch(raw: string, opts: SafeFetchOptions = {}): Promise<Fetched> {
  const allowLoopback = opts.allowLoopback ?? false;
  const maxBytes = opts.maxBytes ?? 1024 * 1024;
  const signal = AbortSignal.timeout(opts.timeoutMs ?? 5000);
  let url = checkUrl(raw, allowLoopback);
  const { fetch: undiciFetch } = await undici();
  const dispatcher = await outboundDispatcher(allowLoopback);
  for (let hop = 0; hop <= (opts.maxRedirects ?? 5); hop++) {
    const res = await undiciFetch(url, {
      redirect: 'manual',
      signal,
      dispatcher,
      headers: { 'user-agent': 'VerbatimBot/1.0 (+widget and listing checks)', accept: 'text/html,*/*;q=0.5' },
    }).catch((err: unknown) => {
      const cause = (err as { cause?: unknown }).cause;
      if (cause instanceof AppError) throw cause;
      // A name that does not exist will not start existing on a retry.
      if ((cause as NodeJS.ErrnoException | undefined)?.code === 'ENOTFOUND') throw new DomainError(`No site answers at ${url.hostname}`, { code: 'page_unreachable', retryable: false, action: 'Check the address' });
      const timeout = signal.aborted;
      throw new AppError(timeout ? 504 : 502, timeout ? 'The page took too long to answer' : `The page could not be fetched: ${(cause as Error | undefined)?.message ?? (err as Error).message}`, { code: timeout ? 'fetch_timeout' : 'fetch_failed', retryable: true });
    });
    const location = res.headers.get('location');
    if (res.status >= 300 && res.status < 400 && location) {
      await res.body?.cancel();
      url = checkUrl(new URL(location, url).toString(), allowLoopback);
      continue;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let truncated = false;
    try {
      for await (const chunk of res.body ?? []) {
        size += (chunk as Uint8Array).length;
        chunks.push(Buffer.from(chunk as Uint8Array));
        if (size >= maxBytes) {
          truncated = true;
          break; // leaving the loop cancels the body
        }
      }
    } catch {
      if (signal.aborted) throw new AppError(504, 'The page took too long to answer', { code: 'fetch_timeout', retryable: true });
    }
    return { url: url.toString(), status: res.status, contentType: res.headers.get('content-type') ?? '', body: Buffer.concat(chunks).subarray(0, maxBytes), truncated };
  }
  throw new AppError(502, 'The page redirected too many times', { code: 'too_many_redirects' });
}

const dispatchers = new Map<boolean, Agent>();

/**
 * The one connection pool for addresses a user can set: every connection it opens resolves
 * its name through the guarded lookup, so a pooled keep-alive socket was checked when opened.
 */
async function outboundDispatcher(allowLoopback: boolean): Promise<Agent> {
  const { Agent } = await undici();
  let agent = dispatchers.get(allowLoopback);
  if (!agent) dispatchers.set(allowLoopback, (agent = new Agent({ connect: { lookup: guardedLookup(allowLoopback) } })));
  return agent;
}

/**
 * fetch of an API a user pointed us at (a project's model base URL): the address literal is
 * checked here, every DNS answer at connect time, and redirects are refused, since an API
 * answers where it is. A refused address throws the `url_not_allowed` DomainError.
 */
export async function guardedFetch(raw: string, init: RequestInit, opts: { allowLoopback: boolean }): Promise<Response> {
  const url = checkUrl(raw, opts.allowLoopback);
  const [{ fetch: undiciFetch }, dispatcher] = await Promise.all([undici(), outboundDispatcher(opts.allowLoopback)]);
  try {
    return await undiciFetch(url, { ...init, redirect: 'error', dispatcher });
  } catch (err) {
    const cause = (err as { cause?: unknown }).cause;
    throw cause instanceof AppError ? cause : err;
  }
}
