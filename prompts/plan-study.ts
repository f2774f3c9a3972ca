import { z } from 'zod';
import { prompt } from '../core/mcp-registry.ts';

export const planStudy = prompt({
  name: 'plan-study',
  title: 'Plan a study',
  description: 'Drafts a research study for a project: goals, then a script of speak/observe/talk segments that serves every goal.',
  args: z.strictObject({
    projectRef: z.string().regex(/^[a-z0-9][a-z0-9-]*\/[a-z0-9][a-z0-9-]*$/, 'must be "org/project"'),
    question: z.string().min(1).max(2000),
    audience: z.string().max(500).optional(),
  }),
  argDescriptions: {
    projectRef: 'The project, as "org/project"',
    question: 'What the team wants to learn',
    audience: 'Who should be interviewed (optional)',
  },
  access: 'user',
  async render(_ctx, args) {
    const [org, project] = args.projectRef.split('/');
    return {
      description: `Plan a study for ${args.projectRef}`,
      messages: [
        {
          role: 'user',
          text: [
            `Plan a user-research study for the Verbatim project ${args.projectRef}.`,
            `What we want to learn: ${args.question}`,
            args.audience ? `Who to talk to: ${args.audience}` : 'Propose who to talk to and why.',
            '',
            `First read the resource service://projects/${org}/${project}/overview to see the project and its existing studies.`,
            'Then draft:',
            '1. Two to four goals, each { id, description }, phrased as what we will understand afterwards.',
            '2. A script (version 2) of segments, each { id, mode, title } with mode speak (the conductor says speak_text),',
            '   observe (the participant uses the product while we watch; give an instruction) or talk (a conversation led by',
            '   instruction and conductor_context). Open with a speak welcome, end with a speak thank-you, and make every goal',
            '   served by at least one talk or observe segment (name the goal id in conductor_context).',
            '3. Questions that ask about specific past behaviour ("the last time you...") rather than opinions or futures.',
            'Check the script with the studies.validate_script tool when it is available, and fix what it reports.',
          ].join('\n'),
        },
      ],
    };
  },
});
