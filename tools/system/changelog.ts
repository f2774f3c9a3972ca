import { z } from 'zod';
import { capability } from '../../core/registry.ts';
import { readOnly } from '../common.ts';
import { RELEASES } from '../../docs/changelog.ts';

export const Release = z.object({
  version: z.string(),
  date: z.string(),
  changes: z.array(z.object({ kind: z.enum(['added', 'changed', 'deprecated', 'removed', 'fixed', 'security']), text: z.string() })),
});

export const changelog = capability({
  name: 'system.changelog',
  title: 'Release changelog',
  description: 'Releases of the API, newest first, with what each added, changed, deprecated or removed.',
  input: z.strictObject({}),
  output: z.object({ api_major_version: z.number().int(), releases: z.array(Release) }),
  annotations: readOnly,
  scope: 'read',
  access: 'public',
  mcp: false,
  rest: { method: 'GET', path: '/api/changelog' },
  async handler() {
    return { api_major_version: 1, releases: RELEASES };
  },
});
