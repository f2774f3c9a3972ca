import { resource } from '../core/mcp-registry.ts';
import { principalOf } from '../core/context.ts';
import { findSignal, fullSignal } from '../tools/evidence/read.ts';
import { findInterview } from '../tools/interviews/record.ts';
import { clock } from '../tools/common.ts';
import { segmentsOf } from '../tools/interviews/rows.ts';

export const caseFileResource = resource({
  name: 'evidence-case-file',
  title: 'Evidence case file',
  description: 'One evidence card\'s self-contained case file (SPEC 2.6.2): the evidence, its provenance, review and links, as JSON.',
  mimeType: 'application/json',
  uriTemplate: 'service://projects/{orgHandle}/{projectHandle}/evidence/{signalId}/case-file',
  access: 'project',
  async list(ctx) {
    const { rows } = await ctx.services.db.pool.query(
      `SELECT o.handle AS org, p.handle AS project, s.id, s.headline, s.signal_type
         FROM signals s JOIN projects p ON p.id = s.project_id JOIN organizations o ON o.id = p.organization_id
         JOIN memberships m ON m.organization_id = o.id AND m.user_id = $1
        WHERE s.dismissed_at IS NULL ORDER BY s.created_at DESC LIMIT 20`,
      [principalOf(ctx).userId],
    );
    return rows.map((r) => ({ uri: `service://projects/${r.org}/${r.project}/evidence/${r.id}/case-file`, name: r.id, title: r.headline ?? r.signal_type }));
  },
  async read(ctx, params) {
    const card = await fullSignal(ctx, await findSignal(ctx, params.signalId));
    return JSON.stringify(card.case_file, null, 2);
  },
});

export const transcriptResource = resource({
  name: 'interview-transcript',
  title: 'Interview transcript',
  description: 'An interview\'s transcript as plain text, one "Speaker [mm:ss]: words" line per segment.',
  mimeType: 'text/plain',
  uriTemplate: 'service://projects/{orgHandle}/{projectHandle}/interviews/{sessionId}/transcript',
  access: 'project',
  async list(ctx) {
    const { rows } = await ctx.services.db.pool.query(
      `SELECT o.handle AS org, p.handle AS project, i.id, i.participant_name
         FROM interviews i JOIN projects p ON p.id = i.project_id JOIN organizations o ON o.id = p.organization_id
         JOIN memberships m ON m.organization_id = o.id AND m.user_id = $1
        WHERE EXISTS (SELECT 1 FROM transcript_segments t WHERE t.interview_id = i.id)
        ORDER BY i.created_at DESC LIMIT 20`,
      [principalOf(ctx).userId],
    );
    return rows.map((r) => ({ uri: `service://projects/${r.org}/${r.project}/interviews/${r.id}/transcript`, name: r.id, title: `Interview with ${r.participant_name ?? 'a participant'}` }));
  },
  async read(ctx, params) {
    const interview = await findInterview(ctx, params.sessionId);
    const segments = await segmentsOf(ctx.services.db.pool, interview.id);
    const at = (ms: number | null) => (ms == null ? '' : ` [${clock(ms)}]`);
    return segments.map((s) => `${s.speaker ?? s.role}${at(s.start_ms)}: ${s.text}`).join('\n');
  },
});
