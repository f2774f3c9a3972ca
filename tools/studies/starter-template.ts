/**
 * The starter study as data only (no imports), so the workspace (app/) can offer it as the
 * template for a new study without a copy.
 */
/** A study a team can run on day one and copy as a template: goals first, then a script that serves them. */
export const starterGoals = [
  { id: 'g-context', description: 'Understand what the participant was trying to get done when they came to the product' },
  { id: 'g-friction', description: 'Find the moments where the product slowed them down or confused them' },
  { id: 'g-value', description: 'Learn what would make the product worth recommending' },
];

export const starterScript = {
  version: 2,
  goals: starterGoals,
  segments: [
    {
      id: 'welcome',
      mode: 'speak',
      title: 'Welcome and consent reminder',
      speak_text:
        'Thanks for joining. This conversation takes about ten minutes. There are no wrong answers: we are testing the product, not you. You can stop at any time.',
    },
    {
      id: 'context',
      mode: 'talk',
      title: 'What brought you here',
      instruction:
        'Ask what the participant was trying to get done today and what they used before. Ask for a concrete recent example.',
      conductor_context: 'Serves g-context. Prefer stories about the last time over opinions in general.',
    },
    {
      id: 'task',
      mode: 'observe',
      title: 'Show us how you do it',
      instruction: 'Ask the participant to show how they do the task they described, thinking aloud. Do not help unless they are stuck for a minute.',
      conductor_context: 'Serves g-friction. Note hesitations, back-tracking, errors and workarounds.',
    },
    {
      id: 'friction',
      mode: 'talk',
      title: 'Where it got hard',
      instruction: 'Ask about any moment where the product slowed them down. Ask what they expected to happen instead, and how they worked around it.',
      conductor_context: 'Serves g-friction. One follow-up per moment; never suggest that something was hard.',
    },
    {
      id: 'value',
      mode: 'talk',
      title: 'What would make it worth it',
      instruction: 'Ask what would have to change for them to recommend the product to a colleague.',
      conductor_context: 'Serves g-value.',
    },
    {
      id: 'thanks',
      mode: 'speak',
      title: 'Thank you',
      speak_text: 'That is everything. Thank you: what you told us goes straight to the team building this.',
    },
  ],
};

/**
 * SPEC 2.9.1: the starter study's invitation, so that a fresh project's widget (and the demo
 * page) shows a launcher on every page until a team targets studies of its own.
 */
export const starterInvitation = {
  launcher: { label: 'Share feedback', icon: 'feedback', style: 'calm', shape: 'capsule' },
  panel: {
    eyebrow: 'Help us improve',
    headline: 'Have ten minutes to tell us how it went?',
    body: 'A short conversation about what you were trying to get done and where the product got in your way. There are no wrong answers.',
    duration_minutes: 10,
    cta: 'Start the conversation',
  },
  presentation_mode: 'passive',
  brand_color: { light: '#3355FF' },
  placement: { desktop: 'bottom-right', mobile: 'bottom-right' },
} as const;
