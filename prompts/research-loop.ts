import { z } from 'zod';
import { prompt } from '../core/mcp-registry.ts';

const ProjectRef = z.string().regex(/^[a-z0-9][a-z0-9-]*\/[a-z0-9][a-z0-9-]*$/, 'must be "org/project"');

export const synthesiseFindings = prompt({
  name: 'synthesise-findings',
  title: 'Synthesise findings from evidence',
  description: 'Groups a project\'s evidence into draft findings, each backed by quotes from more than one interview where possible.',
  args: z.strictObject({ projectRef: ProjectRef, focus: z.string().max(500).optional() }),
  argDescriptions: { projectRef: 'The project, as "org/project"', focus: 'A theme or signal type to concentrate on (optional)' },
  access: 'user',
  async render(_ctx, args) {
    return {
      description: `Synthesise findings for ${args.projectRef}`,
      messages: [
        {
          role: 'user',
          text: [
            `Synthesise research findings for the Verbatim project ${args.projectRef}${args.focus ? `, focusing on: ${args.focus}` : ''}.`,
            '1. Page through evidence.list (limit 50, dismissed false) and read the case files of promising cards (evidence.get).',
            '2. Group cards that describe the same underlying problem or need. Prefer groups with evidence from several interviews (session_id).',
            '3. For each group, call findings.create_from_evidence with a title that states the problem in the participant\'s terms and the',
            '   evidence_refs of the group. Keep findings as drafts; do not mark them reviewed.',
            '4. Check findings.list so you do not duplicate an existing finding; add_evidence to it with findings.update instead.',
            'Report each finding with its evidence_count, interview_count and two representative quotes.',
          ].join('\n'),
        },
      ],
    };
  },
});

export const reviewEvidence = prompt({
  name: 'review-evidence',
  title: 'Review unreviewed evidence',
  description: 'Walks through evidence cards that nobody has reviewed, checking each quote against its transcript context.',
  args: z.strictObject({ projectRef: ProjectRef, limit: z.string().regex(/^\d{1,3}$/).optional() }),
  argDescriptions: { projectRef: 'The project, as "org/project"', limit: 'How many cards to review (default 20)' },
  access: 'user',
  async render(_ctx, args) {
    const n = Number(args.limit ?? 20);
    return {
      description: `Review up to ${n} evidence cards in ${args.projectRef}`,
      messages: [
        {
          role: 'user',
          text: [
            `Review up to ${n} unreviewed evidence cards in the Verbatim project ${args.projectRef}.`,
            'For each card from evidence.list (newest first; skip cards whose review_status is already set):',
            '- read it with evidence.get, and the transcript around it with interviews.get_context at its timestamp_ms;',
            '- check that the signal_type and target_surface fit what was said, and that the claim does not go beyond the quote;',
            '- fix what is wrong with evidence.update; dismiss cards that are not evidence (small talk, the interviewer\'s words) with a reason;',
            '- record your verdict with evidence.review (reviewed, or needs_review with a note for a human).',
            'Finish with a short list: confirmed, corrected, dismissed, needs a human.',
          ].join('\n'),
        },
      ],
    };
  },
});

export const planNextStudy = prompt({
  name: 'plan-next-study',
  title: 'Plan the next study from coverage gaps',
  description: 'Drafts the next study around the goals that existing evidence does not yet address.',
  args: z.strictObject({ projectRef: ProjectRef }),
  argDescriptions: { projectRef: 'The project, as "org/project"' },
  access: 'user',
  async render(_ctx, args) {
    return {
      description: `Plan the next study for ${args.projectRef}`,
      messages: [
        {
          role: 'user',
          text: [
            `Plan the next study for the Verbatim project ${args.projectRef}.`,
            '1. Call studies.coverage_gaps to see which study goals no evidence addresses yet.',
            '2. Call findings.list to see what is already known, so the new study does not re-ask it.',
            '3. Draft a study (studies.create input: title, goals, script version 2) whose goals are the open gaps, with talk and observe',
            '   segments that ask about concrete recent behaviour. Validate it with studies.validate_script and fix every issue.',
            'Present the draft and the gaps it covers; create it only as a draft.',
          ].join('\n'),
        },
      ],
    };
  },
});
