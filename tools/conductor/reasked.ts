/**
 * What the rule interviewer says before asking a question again when the answer was to another
 * question ("Earlier today I had a standup" to "What did you use before?"). The local extractor
 * reads it too: the answer before it is not evidence.
 */
export const REASKED = "Sorry, my question wasn't clear.";
