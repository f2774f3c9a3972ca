import { z } from 'zod';
import { capability } from '../../core/registry.ts';
import { projectOf, type Ctx } from '../../core/context.ts';
import { readOnly } from '../common.ts';
import { projectStudies, recruitmentUrl } from '../studies/record.ts';
import { VoiceOption, projectVoice, studyVoice } from '../conductor/voice-paths.ts';

/** The one tag a site adds to show the project's widget. */
export function embedSnippet(ctx: Ctx): string {
  const { project } = projectOf(ctx);
  return `<script src="${ctx.services.baseUrl()}/sdk/widget.js" data-project-key="${project.public_key}" async></script>`;
}

export const getWidgetSetup = capability({
  name: 'projects.get_widget_setup',
  title: 'Widget embed snippet and setup steps',
  description:
    'Returns the one <script> tag that embeds the project\'s widget (with its SDK key), the steps to set it up, a demo page that shows it, ' +
    'and each study\'s state as the widget sees it (invitation, allowed origins, direct-link URL, whether voice is offered and why not). Check a page afterwards with projects.verify_widget_installation.',
  input: z.strictObject({}),
  output: z.object({
    public_key: z.string(),
    sdk_url: z.string(),
    snippet: z.string(),
    demo_url: z.string(),
    steps: z.array(z.string()),
    studies: z.array(z.object({
      study_ref: z.string(),
      title: z.string(),
      status: z.string(),
      presentation_mode: z.string().nullable(),
      allowed_origins: z.array(z.string()),
      recruitment_url: z.string().nullable(),
      voice: VoiceOption,
    })),
  }),
  annotations: readOnly,
  scope: 'read',
  access: 'project',
  rest: { method: 'GET', path: 'P/widget-setup' },
  async handler(ctx) {
    const { project } = projectOf(ctx);
    const base = ctx.services.baseUrl();
    const voice = await projectVoice(ctx.services, project.id);
    const studies = await projectStudies(ctx.services.db.pool, project.id);
    return {
      public_key: project.public_key,
      sdk_url: `${base}/sdk/widget.js`,
      snippet: embedSnippet(ctx),
      demo_url: `${base}/sdk/demo?key=${encodeURIComponent(project.public_key)}`,
      steps: [
        'Paste the snippet just before </body> on every page where the widget may appear (it loads asynchronously and never shifts your layout).',
        'Give the study an invitation (launcher label, icon, colours, placement) and visibility rules for the pages it should appear on.',
        'List your site\'s origins (e.g. https://www.example.com) in the study\'s allowed_origins; requests from other origins are refused.',
        'Activate the study, then check a page with POST P/widget-installation/verify.',
        'For a direct-link invitation, share the study\'s recruitment_url.',
      ],
      studies: studies.map((s) => ({
        study_ref: s.id,
        title: s.title,
        status: s.status,
        presentation_mode: (s.invitation_json as { presentation_mode?: string } | null)?.presentation_mode ?? null,
        allowed_origins: s.allowed_origins,
        recruitment_url: recruitmentUrl(s),
        voice: studyVoice(voice, s),
      })),
    };
  },
});
