/** The release changelog served at /api/changelog. Newest first; add an entry with every release. */
export const RELEASES: Array<{
  version: string;
  date: string;
  changes: Array<{ kind: 'added' | 'changed' | 'deprecated' | 'removed' | 'fixed' | 'security'; text: string }>;
}> = [
  {
    version: '0.1.0',
    date: '2026-11-22',
    changes: [
      { kind: 'added', text: 'One capability registry serving the MCP endpoint (/mcp), the REST API (/api) and OpenAPI 3.1 (/api/openapi).' },
      { kind: 'added', text: 'Users, organizations with owner/admin/member roles, projects with a starter study, and project settings with encrypted secrets.' },
    ],
  },
];
