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
        'Thanks for joining. This conversation takes about ten minutes. There are no wrong answers: we are learning about the product, not testing you. You can stop at any time.',
    },
    {
      id: 'context',
      mode: 'talk',
      title: 'What brought you here',
      instruction: 'Ask what the participant came to do today. Ask what they used for it before. Ask them to tell you about the last time they did it.',
      conductor_context: 'Serves g-context. Prefer stories about the last time over opinions in general.',
    },
    {
      id: 'task',
      mode: 'observe',
      title: 'Show us how you do it',
      instruction:
        'Ask: "Could you go ahead with what you came to do today, as you normally would, and tell me what you notice along the way?" Do not help unless they are stuck for a minute.',
      conductor_context: 'Serves g-friction. Note hesitations, back-tracking, errors and workarounds.',
    },
    {
      id: 'friction',
      mode: 'talk',
      title: 'How it went',
      instruction: 'Ask how it went for them. Ask what, if anything, took longer than they expected. Ask what they did at that point.',
      conductor_context: 'Serves g-friction. One follow-up per moment; never suggest that something was hard.',
    },
    {
      id: 'value',
      mode: 'talk',
      title: 'What would make the product more useful',
      instruction: 'Ask what would make the product more useful to them.',
      conductor_context: 'Serves g-value.',
    },
    {
      id: 'anything-else',
      mode: 'talk',
      title: 'Anything else',
      instruction: 'Ask: "Is there anything else you would like to tell us?"',
      conductor_context: 'A no is a fine answer.',
    },
    {
      id: 'thanks',
      mode: 'speak',
      title: 'Thank you',
      speak_text: 'That is everything I wanted to ask. What you told us goes straight to the team building this.',
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
    body: 'A short conversation with our automated interviewer about what you came to do and how it went. The team reads every answer; there are no wrong answers.',
    duration_minutes: 10,
    cta: 'Start the conversation',
  },
  presentation_mode: 'passive',
  brand_color: { light: '#3355FF' },
  placement: { desktop: 'bottom-right', mobile: 'bottom-right' },
} as const;
