import type { Request } from 'express';
import { parse } from 'cookie';

/** One cookie's value, parsed from the Cookie header only by the routes that read cookies. */
export function cookieOf(req: Request, name: string): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  return parse(header)[name];
}
