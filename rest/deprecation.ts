import type { Deprecation } from '../core/registry.ts';

/** RFC 9745 `Deprecation` (a structured-field date), RFC 8594 `Sunset` and the guidance link. */
export function deprecationHeaders(d: Deprecation): Record<string, string> {
  const headers: Record<string, string> = {
    Deprecation: `@${Math.floor(Date.parse(d.since) / 1000)}`,
    Link: `<${d.link}>; rel="deprecation"; type="text/html"`,
  };
  if (d.sunset) headers.Sunset = new Date(d.sunset).toUTCString();
  return headers;
}
