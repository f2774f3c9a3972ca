import { z } from 'zod';
import { prompt } from '../core/mcp-registry.ts';

export const draftStudyScript = prompt({
  name: 'draft-study-script',
  title: 'Draft a study script from goals',
  description: 'Turns research goals into a version 2 study script (speak, observe, talk segments), reviewed and ready for studies.create.',
  args: z.strictObject({
    projectRef: z.string().regex(/^[a-z0-9][a-z0-9-]*\/[a-z0-9][a-z0-9-]*$/, 'must be "org/project"'),
    goals: z.string().min(1).max(4000),
    product_context: z.string().max(4000).optional(),
    minutes: z.string().regex(/^\d{1,3}$/, 'must be a number of minutes').optional(),
  }),
  argDescriptions: {
    projectRef: 'The project, as "org/project"',
    goals: 'The research goals, one per line',
    product_context: 'What the product does and for whom (optional)',
    minutes: 'Target interview length in minutes (optional, default 15)',
  },
  access: 'user',
  async render(_ctx, args) {
    const goals = args.goals.split('\n').map((g) => g.trim()).filter(Boolean);
    const minutes = Number(args.minutes ?? 15);
    return {
      description: `Draft a ${minutes}-minute study script for ${args.projectRef}`,
      messages: [
        {
          role: 'user',
          text: [
            `Draft a study script for the Verbatim project ${args.projectRef}, about ${minutes} minutes long.`,
            args.product_context ? `Product context: ${args.product_context}` : '',
            'Research goals:',
            ...goals.map((g, i) => `  g${i + 1}: ${g}`),
            '',
            'Produce JSON for studies.create: { "title", "goals": [{ "id": "g1", "description" }...], "script": { "version": 2, "goals": [...same...],',
            '"segments": [...] } }. Each segment is { "id", "mode", "title" } plus:',
            '- speak: "speak_text", the exact words the conductor says (welcome, transitions, thanks);',
            '- talk: "instruction" (what to ask) and "conductor_context" (why, naming the goal id it serves, and when to follow up);',
            '- observe: "instruction" (the task to try while thinking aloud) and "conductor_context" (what to watch for, naming the goal id).',
            'Open with a speak welcome that says recording can stop at any time; close with a speak thank-you.',
            'Serve every goal with at least one talk or observe segment. Ask about specific past behaviour, one question at a time;',
            'avoid leading questions and hypotheticals ("would you use...").',
            `Then call studies.validate_script with projectRef "${args.projectRef}" and fix every error and warning before proposing it.`,
          ]
            .filter((line) => line !== '')
            .join('\n'),
        },
      ],
    };
  },
});
