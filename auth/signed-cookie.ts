import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Services } from '../core/context.ts';
import { serverSecret } from '../core/server-secrets.ts';

/** A JSON value in a cookie, HMAC-signed with a server secret and stamped with its age. */
export function signedCookie<T extends object>(services: Services, secretName: string, maxAgeSeconds: number) {
  let key: Buffer | null = null;
  const mac = async (value: string) => {
    key ??= await serverSecret(services.db.pool, secretName);
    return createHmac('sha256', key).update(value).digest('base64url');
  };
  return {
    async seal(value: T): Promise<string> {
      const body = Buffer.from(JSON.stringify({ ...value, at: Date.now() })).toString('base64url');
      return `${body}.${await mac(body)}`;
    },
    /** The value, or null when the cookie is missing, tampered with or too old. */
    async open(cookie: string | undefined): Promise<T | null> {
      if (!cookie) return null;
      const i = cookie.lastIndexOf('.');
      const body = cookie.slice(0, i);
      const expected = Buffer.from(await mac(body));
      const given = Buffer.from(cookie.slice(i + 1));
      if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
      const value = JSON.parse(Buffer.from(body, 'base64url').toString()) as T & { at: number };
      return Date.now() - value.at > maxAgeSeconds * 1000 ? null : value;
    },
  };
}

/** Only paths on this site: flows never forward the browser elsewhere. */
export function safeReturn(value: unknown): string {
  return typeof value === 'string' && /^\/(?!\/)[^\s\\]*$/.test(value) ? value : '/';
}
