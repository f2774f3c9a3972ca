/** Words that carry what a question is about: three letters or more, without the words every question has. */
const QUESTION_WORDS = /^(?:the|and|you|your|for|that|this|what|would|could|make|with|are|was|were|does|did|how|why)$/;
const contentOf = (text: string) => (text.toLowerCase().match(/[\p{L}']{3,}/gu) ?? []).filter((w) => !QUESTION_WORDS.test(w));

/**
 * A question that says the interviewer's question back, or turns it on the asker ("What would make
 * YOU more useful?" to "What would make the product more useful to you?"): most of its words are the question's.
 */
export function saysQuestionBack(sentence: string, question: string | null | undefined): boolean {
  if (!question || !/\?\s*$/.test(sentence)) return false;
  const asked = new Set(contentOf(question));
  const own = contentOf(sentence);
  return own.length > 0 && own.filter((w) => asked.has(w)).length / own.length >= 0.6;
}
