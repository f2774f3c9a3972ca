/**
 * Spoken and non-native grammar made plain before a quote is parsed for its headline and claim.
 */

/** Done to the participant by "they" (the company, support): said from the participant's side, so one "they" is left. */
const DONE_TO = { told: 'told', kept: 'kept', put: 'put', asked: 'asked', charged: 'charged', sent: 'sent', gave: 'given', billed: 'billed', refunded: 'refunded', emailed: 'emailed', called: 'called', rang: 'rung', texted: 'texted', promised: 'promised', blocked: 'blocked', banned: 'banned', overcharged: 'overcharged', kicked: 'kicked', locked: 'locked', logged: 'logged', signed: 'signed' } as Record<string, string>;

/**
 * Spoken and non-native grammar a headline and claim should not repeat: "I not find" is "I did
 * not find", "he don't" is "he doesn't", "Me and my wife we use it" is "My wife and I use it",
 * and "They told me I had to pay" is "I was told I had to pay" ("They told them they had to pay" names nobody).
 */
/** Contractions typed without their apostrophe: "cant", "doesnt", "theres", "im". */
const UNMARKED: Record<string, string> = {
  cant: "can't", dont: "don't", doesnt: "doesn't", didnt: "didn't", isnt: "isn't", wasnt: "wasn't", arent: "aren't", werent: "weren't",
  couldnt: "couldn't", wouldnt: "wouldn't", shouldnt: "shouldn't", havent: "haven't", hasnt: "hasn't", theres: "there's", thats: "that's",
  im: "I'm", ive: "I've", ill: "I'll",
};

/** "cant tell" as "can't tell", so the parse sees the verb it is. */
export const withApostrophes = (text: string) =>
  text.replace(/\b(cant|dont|doesnt|didnt|isnt|wasnt|arent|werent|couldnt|wouldnt|shouldnt|havent|hasnt|theres|thats|im|ive)\b/gi, (w: string) => {
    const fixed = UNMARKED[w.toLowerCase()];
    return w[0] === w[0].toUpperCase() && fixed[0] !== 'I' ? fixed[0].toUpperCase() + fixed.slice(1) : fixed;
  });

/** Chat shorthand spelled out; emoji and chat fillers ("lol", "ngl", "fr") are no words of the moment. */
const SHORTHAND: Record<string, string> = { u: 'you', ur: 'your', bc: 'because', cuz: 'because', coz: 'because', pls: 'please', plz: 'please', tho: 'though', rn: 'right now', alr: 'already', idk: "I don't know", smth: 'something', ppl: 'people', msg: 'message', w: 'with' };
const CHAT_FILLER = /(?:^|\s*,?\s+)\b(?:lol|lmao|lmfao|rofl|ngl|tbh|fr|bruh|lowkey|highkey|ig|nvm|omg|smh|ikr)\b[,.!]*(?=\s|$)/gi;
const EMOJI = /\s*\p{Extended_Pictographic}(?:\uFE0F|\u200D\p{Extended_Pictographic}|\p{Emoji_Modifier})*/gu;
export const chatSpelledOut = (text: string) =>
  text
    .replace(EMOJI, '')
    .replace(CHAT_FILLER, '')
    .replace(/\b(u|ur|bc|cuz|coz|pls|plz|tho|rn|alr|idk|smth|ppl|msg|w)\b(?![/'’-])/g, (w: string) => SHORTHAND[w] ?? w)
    .replace(/^\s*[,.]\s*/, '')
    .trim();

export function plainGrammar(text: string): string {
  return text
    // "Can't tell which stores are included." typed without its "I".
    .replace(/^((?:(?:so|and|but|ok|okay|well|oh|hmm|still),?\s+)*)(can'?t|cannot|couldn'?t|don'?t|didn'?t|won'?t)\s+(?=[a-z])/i, (_m, lead: string, neg: string) => `${lead}I ${neg.toLowerCase()} `)
    // "Is minus twenty-two in there, and…" said, not asked: "It is…".
    .replace(/^((?:(?:so|and|but|well|oh|yeah),?\s+)*)(is|was)\s+(?!(?:it|this|that|there|he|she|they|you|i|we)\b)(?=[^?]*[.!]?$)/i, (_m, lead: string, verb: string) => `${lead}it ${verb.toLowerCase()} `)
    // "I kind of panic": the hedge is not the verb.
    .replace(/\b(I|we) (?:kind|sort) of (?=[a-z]+\b)/gi, '$1 ')
    // "So now I lie to the app basically.": a trailing filler.
    .replace(/,?\s+(?:basically|honestly|actually|really|literally)([.!?]*)$/i, '$1')
    .replace(/\b(I|we) not (?=(?:find|see|know|understand|get|have|like|want|go|work|use|need|pay|remember|think|receive|hear|notice|expect|manage|finish|click|press|open|save|send)\b)/gi, '$1 did not ')
    .replace(/\b(he|she|it) don't\b/gi, '$1 doesn\'t')
    .replace(/^((?:(?:so|well|and|yeah|um|oh|honestly),?\s+)*)(?:(?:me|I) and (my \w+)(?:,? we\b)?|(my \w+) and (?:me|I)\b(?:,? we\b)?)/i, (_m, lead: string, after?: string, before?: string) => `${lead}I and ${after ?? before}`)
    .replace(/(^|[,;]\s*(?:and |but |so )?|\b(?:and|but|so|then) )they (\w+) (me|us)\b/gi, (m, lead: string, verb: string, who: string) => {
      const done = DONE_TO[verb.toLowerCase()];
      return done ? `${lead}${who.toLowerCase() === 'me' ? 'I was' : 'we were'} ${done}` : m;
    });
}
