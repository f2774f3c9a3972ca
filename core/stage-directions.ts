/**
 * Sounds and stage directions a transcript writes in brackets ("[laughs]", "(inaudible)",
 * "[crosstalk]"): not words anyone said, so never a speaker's name, a headline or a claim.
 */
const CUE = String.raw`(?:(?:nervous(?:ly)?|soft(?:ly)?|quiet(?:ly)?|loud(?:ly)?|brief(?:ly)?|long|short)\s+)?(?:inaudible|unintelligible|crosstalk|laughs?|laughing|laughter|chuckles?|chuckling|giggles?|music|pause|pauses|silence|noise|unclear(?: speech)?|applause|sighs?|sighing|coughs?|background noise|indistinct|no audio|beep|overlapping|overtalk|groans?)(?:\s+(?:nervously|softly|quietly|loudly|briefly))?`;
const BRACKETED = String.raw`[[(]\s*${CUE}\s*[\])]`;

export const NOT_SPEECH = new RegExp(`^${CUE}$`, 'i');
/** Stage directions (and the space after them) a sentence opens on. */
export const LEADING_CUE = new RegExp(String.raw`^(?:${BRACKETED}[\s,.]*)+`, 'i');
/** Stage directions a sentence ends on, before its full stop or none. */
export const TRAILING_CUE = new RegExp(String.raw`(?:\s*${BRACKETED})+(?=[.!?]*$)`, 'i');

const IN_BRACKETS = new RegExp(String.raw`\s*${BRACKETED}`, 'gi');

/** The text without its bracketed stage directions: "I tried [laughs] twice" → "I tried twice". */
export function withoutStageDirections(text: string): string {
  const said = text.replace(IN_BRACKETS, '');
  return said === text ? text : said.replace(/^[\s,.;:]+/, '').trim();
}
