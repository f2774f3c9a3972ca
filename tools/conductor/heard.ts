import { notEnglish } from '../../core/language.ts';
import { escapeRegExp } from '../../core/regexp.ts';
import { saysQuestionBack } from '../../core/said-back.ts';

/**
 * What a participant's message says besides an answer, as the built-in interviewer hears it:
 * a question of their own, a wish to skip or to stop, "I already told you", a guess at what the
 * question means. Each gets a short, plain reply before the interview goes on.
 */

export const words = (text: string) => text.trim().split(/\s+/).filter(Boolean).length;

/**
 * A message as it is read (it is stored as typed): emoji and markdown out (a wave is "bye"),
 * leading fillers ("uh", "ok", "k") off, and a shouted message in lower case, so "😂 no",
 * "k done" and "THE EXPORT NEVER WORKS!!!" are read as "no", "done" and "The export never works!!!".
 */
export function plain(message: string): string {
  let text = message
    .replace(/👋/gu, ' bye ')
    .replace(/[\p{Extended_Pictographic}\u{FE0F}\u{200D}\u{1F3FB}-\u{1F3FF}]/gu, ' ')
    .replace(/\*\*|__|^#+\s*/gm, '')
    // A list typed line by line: each line is a sentence of its own, without its bullet or number.
    .replace(/^[ \t]*(?:[-*•]|\d{1,2}[.)])[ \t]+/gm, '')
    .replace(/([^.!?:;,\s])[ \t]*\n+/g, '$1.\n')
    .replace(CHAT, (w) => CHAT_WORDS[w.toLowerCase().replace('/', '')] ?? '')
    .replace(/\s+/g, ' ')
    .replace(/\s+([,.!?])/g, '$1')
    .trim()
    .replace(/^(?:(?:uh+|um+|er+m?|hmm+|k|ok(?:ay)?|so|well|oh|ah)[,.!]?\s+)+(?=\S)/i, '');
  return shouted(text) ? text.charAt(0) + text.slice(1).toLowerCase() : text;
}
/** Chat shorthand read as the words it stands for; "tbh" and "lol" say nothing and go. */
const CHAT_WORDS: Record<string, string> = { idk: "I don't know", wdym: 'what do you mean', rly: 'really', we: 'whatever', w: 'with', u: 'you', ur: 'your', thx: 'thanks', pls: 'please', plz: 'please', gtg: 'got to go', g2g: 'got to go', n: 'and', r: 'are', tbh: '', imo: '', imho: '', ngl: '', lol: '', lmao: '', tho: 'though' };
const CHAT = /\b(?:idk|wdym|rly|w\/e|u|ur|thx|pls|plz|gtg|g2g|tbh|imo|imho|ngl|lol|lmao|tho)\b|\bw\/?(?=\s+[a-z])|(?<=\w )[nr](?= \w)/gi;
/** Written in capitals ("THE EXPORT NEVER WORKS!!!"), not an acronym or two. */
const shouted = (text: string) => {
  const letters = text.replace(/[^\p{L}]/gu, '');
  return letters.length >= 8 && letters.replace(/\p{Lu}/gu, '').length / letters.length < 0.2;
};
/** A message's sentences, split after ".", "!" or "?" (typed answers are short; the full splitter is not needed). */
export const sentencesOf = (text: string) => text.trim().split(/(?<=[.!?])\s+/).filter(Boolean);

/** A question tag ("…, right?", "you know?"): not a question of the participant's own. */
const TAG_QUESTION = /(?:,\s*|\b)(?:right|you know|isn'?t it|don'?t you|huh|eh|ok(?:ay)?|yeah)\?\s*$|,\s*(?:no|yes|true|correct|or not)\?\s*$/i;
/** Words said before a question: "So, ", "Oh wait, ", "Quick question: ". */
const OPENERS = String.raw`(?:(?:so|and|but|oh|ok(?:ay)?|well|um|uh|sorry|also|wait|hang on|hold on|hey|again|like|hmm|honestly|seriously|anyway|actually|btw|by the way|out of interest|just curious|(?:just )?(?:a |one |quick )*question)[,:\s-]+)*`;
/** How a question starts, after an opener: "So, can it…", "And why does…". A rising "maybe a button?" is a suggestion, not a question. */
const ASKING = new RegExp(String.raw`^${OPENERS}(?:what|why|how|where|when|who|which|whose|is|are|was|were|do|does|did|can|could|will|would|should|shall|may|am|have|has|isn'?t|aren'?t|don'?t|doesn'?t|didn'?t|can'?t|won'?t|wouldn'?t|any(?:one|body) )\b`, 'i');

/** Question word order ("how long will this take", "do you work for them", "can i see the results"): a question typed without its "?". */
const QUESTION_ORDER = new RegExp(
  String.raw`^${OPENERS}(?:how (?:many|much) more\b|(?:what|why|how(?: long| much(?: longer)?| many(?: more)?)?|where|when)\s+(?:is|are|was|were|do|does|did|can|could|will|would|should|has|have)\s+(?:you|u|this|it|that|the|these|those|they|we|i|my|your|our|any(?:one|body)|some(?:one|body)|there)\b|(?:is|are|do|does|can|could|will|would|should|have|has|am)\s+(?:you|u|any(?:one|body)|some(?:one|body)|this|these|there)\b|(?:is|was|does|will|can|could|would|should) (?:it|that)\b|(?:do|does|did) (?:other|most|many|people|others|the others)\b|(?:can|could|should|may|do|must) i\b)`,
  'i',
);
/** Fillers and exclamations in question order: "how do I put it", "do you know what I mean", "are you kidding me". */
const NOT_ASKING = /\b(?:how (?:do|can|should) i (?:say|put|explain|describe)|what do you call (?:it|them|that)|what (?:was|am) i saying|(?:do )?you know what i mean|are you (?:kidding|serious|joking))\b/i;

/** Said in question order to oneself: "where do I start", "what do you know, it worked", "why would I …". */
const RHETORICAL = /^(?:(?:so|and|but|well|oh)[,\s]+)*(?:where do i (?:start|begin)|what do you know|why would (?:i|anyone|you)|what (?:was|am) i (?:doing|thinking))\b/i;

/**
 * The message with a "?" after a last sentence that is a short question in all but its mark ("is
 * this recorded", "how long will this take"); a longer one, or one going on after a comma, is left as said.
 */
export const markedAsQuestion = (message: string): string => {
  const text = message.trimEnd();
  if (/[.!?…:;)\]"'”]$/.test(text)) return message;
  const last = (sentencesOf(plain(text)).pop() ?? '').trim();
  const asks = words(last) >= 3 && words(last) <= 8 && !last.includes(',') && QUESTION_ORDER.test(last) && !NOT_ASKING.test(last) && !RHETORICAL.test(last);
  return asks ? `${text}?` : message;
};

/** A sentence that asks something of the interviewer. */
export const asksSomething = (sentence: string) => /\?\s*$/.test(sentence) && !TAG_QUESTION.test(sentence) && words(sentence) >= 3 && ASKING.test(sentence.trim());

/** "Who are you?", "Is this a real person?" */
const ASKS_WHO = /\b(?:who are you|who is this|who (?:made|built|wrote) (?:you|this)|are you (?:a |an )?(?:real|human|person|bot|robot|ai)|is this (?:a )?(?:real|human|person|bot|robot|ai)|am i talking to|do you (?:actually |really )?work (?:for|at|with) (?:them|the company|this company|the team|\w+)|are you (?:from|with|part of) (?:the company|them|the team)|is this an agency(?: thing)?)\b/i;
/** "What is this for?", "Why are you asking?" */
const ASKS_WHY =
  /\b(?:why (?:do|did) you (?:ask|want to know)(?! (?:me )?(?:again|that again))|what(?: i|')s (?:this|it) (?:for|about)|what are (?:these|the) questions for|why are you asking|what is this interview|why (?:should|would|must|do) i (?:have to )?(?:tell you|answer (?:this|that|these|you)|do this)|why do you (?:want|need) to know|why (?:does|would) (?:that|this|it) matter|why,? (?:does|would) (?:that|this|it) matter (?:when|how|what|which|who)|why (?:do|would) you care|why (?:any of )?(?:this|it|that) (?:is|was) (?:needed|necessary)|why you need (?:this|it|that|to know))\b|\bwhat(?: i|')s the point(?: of (?:this|it|that|all this))?\s*\?*$/i;
/** "Is my manager going to see this?": who else could read it. */
const ASKS_WHO_SEES =
  /\bwho(?:'s| is) (?:going to|gonna) (?:read|see|look at|get)\b|\b(?:is|are) (?:this|these|it|that|my answers|what i (?:write|say|type)) (?:going|sent|shared|passed|forwarded) (?:to|with) (?:my|our|the) (?:boss|manager|employer|company|supervisor|school|hr|team lead)\b|\b(?:does|will|would) (?:that|it|this|the team) include (?:my|our) (?:employer|manager|boss|company|school|hr)\b|\bwho (?:exactly )?is ["“']?the team["”']?|\bwho (?:actually |really |even |else )?(?:reads|sees|gets|looks at|will (?:read|see))(?: (?:this|these|it|them|(?:my|the|our) answers|this stuff|any of this|what i (?:write|say|type))\b|\s*\?)|\b(?:(?:is|will|would|can|could|does|do) (?:my|the|our) (?:manager|boss|employer|owner|company|school|teacher|landlord|supervisor|work|university|college)s? (?:be able to |going to |gonna |ever )?(?:see|read|know|find out|hear|get)|(?:is|will|does) (?:this|it|any of this) (?:going to |gonna )?(?:get back to|be shared with|go to) (?:my|the|our)(?! (?:same|support|usual|website|app|site|place|inbox)\b))\b/i;
/** "Will I get anything for doing this? A voucher or something?" */
const ASKS_REWARD = /\b(?:(?:will|do|would|can|could) (?:i|we) (?:get|receive|earn|be (?:paid|compensated|rewarded))\b[^.?!]{0,30}\b(?:for (?:this|doing this|taking part|my time|it)|voucher|gift card|reward|incentive|payment|money|discount|credit)|(?:is there|do you (?:give|offer)|any) (?:a |an |any )?(?:voucher|gift card|reward|incentive|compensation|payment|thank-you gift)s?\b|\b(?:am i|are we) (?:getting )?(?:paid|compensated|rewarded)\b)/i;
export const REWARD = "I can't say anything about rewards from here: the team that invited you can tell you whether there is one.";
/** "Is this anonymous?", "Is what I wrote tied to my name or account?", "Will they know it was me?" */
const ASKS_ANONYMOUS =
  /\b(?:(?:is|are|will|stay|be|remain|kept) (?:(?:this|it|that|these|my answers?|(?:what|everything) i (?:write|wrote|say|said|type|typed)) )?(?:\w+ )?(?:anonymous|anonymi[sz]ed|confidential)|(?:tied|linked|connected|attached|traced|matched) (?:back )?(?:to|with) (?:me|my (?:name|account|e-?mail|profile|id|identity))|(?:know|see|find out|tell) (?:it'?s|it is|it was) me|(?:know|see|find out) who i am)\b/i;
/** "Does anyone read these?" */
const ASKS_WHO_READS = /\b(?:(?:does|will|do) (?:any(?:one|body)|someone|a (?:real )?person|people|the team) (?:actually |really |even )?read(?: (?:this|these|it|them|(?:my|the|our) answers|what i (?:write|say|type))\b|\s*\?)|are you (?:even |actually |really )?(?:reading|listening))\b/i;
/** "Can I go now?", "I have to go": leaving, not going somewhere or stopping something ("I have to go through the invoices", "I want to stop paying for two tools"). */
const WANTS_TO_STOP =
  /\b(?:(?:gotta|got to|have to|need to|must) (?:go|run|leave|head out|dash)(?: now)?(?=\s*(?:sorry|now|,|\.|!|$))|i must go|i'?m out of time|(?:i'?ll|i will|let me|can we) (?:finish|continue|do) (?:this|it|the rest) (?:later|another time|tomorrow)|(?:being|been|getting) called (?:in|into|away)|(?:my )?(?:lunch )?break is over|i need to head out)|\b(?:can i (?:go|leave|stop)|can we (?:stop|finish|end|wrap (?:this|it) up)|i (?:have|need|got|gotta) to (?:go|leave|stop|run)|i need to run|i(?:'d| would) like to stop|i want to (?:stop|leave|end))(?=\s*(?:now|soon|sorry|please|quickly|here|already|in a (?:minute|sec(?:ond)?|moment)|(?:,|\.|!|\?|$)))|^(?:i think )?(?:stop|enough|i'?m done|im done|i am done)(?: now)?[.!]*$|\b(?:good ?)?bye[.!]*$/i;
/** "Please stop the interview.", "I don't want to continue.", "That's enough for today.": ending the interview in other words. */
const ENDS_INTERVIEW =
  /\b(?:skip the rest(?: of (?:this|it|the (?:interview|questions|survey)))?|(?:stop|end|finish) (?:the|this) (?:interview|survey|chat|conversation)|i(?:'d| would) like to (?:end|stop|finish)(?: (?:the|this) (?:interview|survey|chat|conversation)| it)?|i (?:don'?t|do not) want to (?:continue|go on|carry on|do (?:this|any more|anymore|more|tasks|the tasks?))|(?:i'?m|i am) not comfortable (?:continuing|going on)(?: with (?:this|it|the interview))?|(?:i'?m|i am|im) done for (?:today|now)|let'?s (?:stop|end) (?:here|now|there|this)|(?:like|want) to (?:leave it|stop) (?:there|here)|call it a day|(?:i'?m|i am) going to have to (?:go|leave|stop))(?=\s*(?:now|today|please|sorry|thanks|thank you)?\s*(?:[,.!?—–-]|$))|^(?:ok(?:ay)?,?\s*)?(?:that'?s|that is) enough(?: for (?:today|now|me))*(?: today)?(?:,? thanks?(?: you)?)?[.!]*$/i;
/** Said alone, about the interview ("I'm short on time."); inside a long answer it is about the product. */
const HAS_NO_TIME = /\b(?:(?:don'?t|do not) have (?:the )?time for this|short on time)\b/i;
/** "Can you see my screen?", "Are you recording this?" */
const ASKS_ABOUT_RECORDING =
  /\b(?:(?:can|do|how (?:can|do)|are) you (?:see|seeing|watch|watching|record|recording) (?:my|the|this)|are you (?:seriously |really |actually |even )?(?:recording|watching)|(?:is|are) (?:this|it|my screen|my (?:voice|camera|mouse|clicks?|answers?)|you) (?:being )?(?:recorded|watched|tracked|tracking|monitored|monitoring|logged|logging)|what (?:are you|is being|do you) record)/i;
/** "How long is this?", "Are we done?" */
const ASKS_HOW_LONG =
  /\b(?:how long (?:is|will|does) this|(?:is|will|does) (?:this|the) ?(?:interview|survey|questionnaire|chat|call)? (?:going to |gonna )?(?:take|taking|last|be) (?:long|much longer)|how much longer|are we (?:done|finished|nearly done)|how many (?:more )?questions|how many more|are there (?:many|lots|a lot)(?: of)? more|is there (?:much|a lot) more|(?:is|was) (?:this|that|it) the last (?:question|one|part|bit)|can we (?:please )?wrap (?:this |it )?up|are we (?:almost|nearly) (?:done|there)|(?:is it|are we) (?:done|over) yet)\b[^.!?]*\?/i;
/** "can we speed this up?": asked of the interview, with or without its mark. */
const SPEEDS_UP = /\bcan we (?:please )?(?:speed (?:this|it) up|hurry(?: (?:this|it))? up|go (?:a bit )?faster|make (?:this|it) (?:quick|quicker|faster))\b/i;
/** "Is this a leading question?", "You're assuming it was a hassle." */
const PUSHES_BACK = /\b(?:leading question|trick question|you(?:'re| are) assuming|(?:you'?re|you are) putting words in my mouth)\b/i;
/** "Are you going to sell my data?", "What do you do with my answers?" */
const ASKS_DATA_USE = /\b(?:(?:sell|share|pass on|give away|use|do with)\s+(?:my|our|the|this)\s+(?:data|answers|information|info|details)|(?:who|what) (?:gets|buys|happens to) (?:my|our|the) (?:data|answers|information|info))\b/i;
export const DATA_USE = 'Your answers are used only for research by the team that makes the product, as the consent at the start said; you can skip any question you would rather not answer.';

/** "I'm not sure I want to carry on": unsure whether to go on, not yet leaving. */
const UNSURE_TO_GO_ON = /\b(?:not sure (?:i|if i) (?:want to|wanna|should|can) (?:carry on|continue|go on|keep going|do (?:this|it|the rest))|(?:this is|it'?s) (?:more|longer|harder) than i (?:expected|thought|signed up for))\b/i;
export const UP_TO_YOU = 'That is fine: you can skip this task with "I\'m done", or stop at any time with "End interview".';

/** "I'd rather not answer that.", "Can we skip this one?" */
const SKIPS =
  /\b(?:(?:i'?d|i would) rather not(?: (?:answer|say|talk about|go into|discuss|share)\b[^.?!,]{0,30})?(?:,?\s*(?:to be honest|honestly|sorry|next(?: question)?(?:,? please)?|if (?:that'?s|it'?s) ok(?:ay)?|if you don'?t mind))?[.!]*$|(?:i'?d )?prefer not to (?:answer|say|talk|go into|discuss|share)|(?:can|could|may) (?:we|i) (?:just )?skip|(?:i'?d|i would) (?:rather|like to) skip|(?:can|could) we (?:just )?move on|let'?s (?:just )?move on|skip (?:this|that)(?: one| question)?[.!?]*$|(?:i )?(?:don'?t|do not) want to (?:answer|say|talk about)|not comfortable (?:answering|saying|talking)|no comment|(?:that'?s|it'?s) (?:private|personal)[.!]*$|none of your business)|^(?:pass|next question(?:,? please)?)[.!]*$|(?:^|[.,!;]\s*|\bsaid )skip(?: (?:it|this|that|one|please)){0,3}[.!]*$/i;
/** "I already told you.", "Said already." — a complaint, not a new answer (a long answer that says "as I said" is still an answer). */
const ALREADY = /(?:^|[.!]\s+)i (?:said|told you|wrote) (?:there (?:was|were|is|are)|that|it was|we|i)\b[^.?!]{0,40}[.!]*$|(?:^|[.!]\s+)(?:(?:i )?told you|like i (?:said|wrote)|as i wrote|(?:also |already )?said (?:that|it|so|this)|also said|(?:also )?already said|said already|i say (?:it )?already)\b|(?:^|[.!]\s+)(?:(?:that'?s|for) the )?(?:second|third|fourth|fifth) time[.!]*$|\bi (?:mentioned|said) (?:that|it|this)(?: already| before| earlier| too| as well)?[.!]*$|,\s*like i (?:said|told you)[.!]*$|\b(?:i (?:kind of |sort of |basically )?(?:already|just|literally just) (?:told(?= you\b| that\b| this\b| it\b|\s*[.!,]|\s*$)|said|answered|mentioned)|(?:said|told you|answered|covered) (?:that |this |it )?already|as i (?:said|told you|mentioned)|i (?:told|said) (?:you|that) (?:before|already|earlier))\b/i;
const SAID_IT_ALREADY = /^(?:i (?:already|just|literally just) (?:told you|said(?: (?:that|it|so))?|answered(?: that)?|explained(?: (?:that|it|why))?)|(?:i )?told you(?: already)?|already said|said already|(?:see|as|same as) (?:above|before)|same (?:reason|answer|as what i said)(?: as (?:above|before))?)[.!]*$/i;
const OPENS_ALREADY = /^(?:(?:um|uh|well|yeah|yes|no|ugh|sorry|i mean)[,.!]?\s+){0,2}(?:i (?:kind of |sort of )?(?:already|just) (?:told you|said|answered)|(?:i )?told you(?: already)?|already said|said already)\b/i;
/** "Oh, you mean paying the bill?" */
const GUESSES = /^(?:(?:oh|so|ah|or|wait|like)[,.!]?\s*)*(?:you mean|do you mean|did you mean)\b.{2,80}\?+$|^(?:(?:so|and|but|sorry|wait)[,.]?\s*)*(?:does|do|is|did) ["“'][^"”']{2,30}["”'] mean\b.{2,80}\?+$/i;
/** Readings of the question offered to choose from: "…, is that the whole monthly thing or just one claim?", "The logout thing or the bank account?" */
const EITHER_OR = /(?:^|[,—–-]\s*)(?:(?:hmm|so|sorry|wait|like|oh)[,.]?\s*)*(?:is (?:that|it|this)|do you mean|you mean|as in|the|a|an|my|just|only)\b[^?]{1,80}\bor\b[^?]{1,60}\?+$/i;
/** A reading offered with the word asked about: "what does approved first time mean, like without them sending it back?" */
const MEANS_LIKE = /\bmean\b,?\s*(?:like|as in|so|i\.e\.?)\s[^?]{2,80}\?+$/i;
/** "I don't have a housemate, do you mean my husband?": the reading comes last. */
const MEANS_AT_END = /,\s*(?:or\s+)?(?:do|did) you mean\b[^?]{2,60}\?+$/i;
const guesses = (sentence: string) => GUESSES.test(sentence) || (words(sentence) <= 25 && (MEANS_AT_END.test(sentence) || EITHER_OR.test(sentence) || MEANS_LIKE.test(sentence)));
/** "why you ask again?", "You already asked that.": the question was answered before. */
const ASKED_AGAIN = /\bwhy (?:do |are |did )?you (?:ask|asking|asked)(?: (?:me|that|this|it))* again\b|\bdidn'?t you (?:just |already )?ask (?:me )?(?:that|this|it)\b|\byou (?:already|just) asked (?:me )?(?:that|this|it)\b|\b(?:same|that) question again\b/i;
/** "Sorry for my English." */
const APOLOGISES_FOR_ENGLISH = /\b(?:sorry|apologi[sz]e)\b[^.?!]{0,20}\bmy english\b|\bmy english (?:is|isn'?t) (?:not )?(?:very |so )?(?:good|great|perfect)\b/i;

export const ACKNOWLEDGEMENT = "These questions are asked automatically, so I can't answer yours here, but the team will read it.";
export const NOTED = 'Noted for the team.';
/** To a question it cannot answer: in full once, then shorter lines, then the shortest again, so no question goes unheard. */
const PASSED_ON = [ACKNOWLEDGEMENT, NOTED, "I'll pass that question on to the team.", 'The team will see that question too.'];
export const WHO_WE_ARE = 'These questions are asked automatically, not by a person. The team reads every answer.';
export const WHY_WE_ASK = 'This short interview helps the team that makes the product understand how people use it, and the team reads every answer.';
export const WHO_READS = 'Yes, the team that makes the product reads every answer.';
/** How anonymous the answers are, as far as the interview knows: a name or e-mail given with it, or none. */
export const ANONYMITY = "You weren't asked for your name, e-mail or account here: your answers go only to the team that makes the product, for research, and you can skip any question you'd rather not answer.";
export const ANONYMITY_NAMED = "Your answers go only to the team that makes the product, for research. They are kept with the name or e-mail you gave, and you can skip any question you'd rather not answer.";
const ANONYMITY_AGAIN = 'No name, e-mail or account is asked for here, and only the team that makes the product sees your answers.';
const ANONYMITY_NAMED_AGAIN = 'Your answers are kept with the name or e-mail you gave, and only the team that makes the product sees them.';
/** "Why do you need to know?" asked a second time: what the answers are for, in other words. */
export const WHY_IT_HELPS = 'Your answers show the team where the product gets in the way, so they know what to fix first.';
export const ONLY_THE_TEAM = 'Only the team that makes the product reads your answers, and you can skip any question you would rather not answer.';
export const FREE_TO_GO = 'You can stop at any time with "End interview".';
export const STOPPING = 'Of course, we can stop here. Thank you for your time: what you told us goes to the team.';
export const SKIPPED = 'Of course, we can skip that.';
export const ALREADY_SAID = 'Sorry, you did. Thank you.';
/** The same, worded differently each time it is needed again in one interview. */
const ALREADY_SAID_AGAIN = [ALREADY_SAID, 'Right, you said so. Thanks.', 'Yes, you did.'];
export const GOING_BACK = 'Of course.';
/** The participant's own reading of the question is the one worth hearing: they are asked to go on with it. */
export const YOUR_READING = 'Yes, go with that.';
export const NOT_ASSUMING = "Fair point: I'm not assuming anything. Good or bad, how it went for you is what helps.";
/** "Does 'useful' mean for me or for my company?": the participant's own reading is the one to go with. */
export const EITHER_WAY = 'Either is fine: whichever fits your own experience.';
/** To a last word with something in it, before the closing: it was heard. */
export const NOTED_LAST = 'Thank you for adding that.';
/** To a participant who tells of distress ("I almost cried"): heard, without naming their feeling for them. */
export const THANK_YOU_FOR_TELLING = 'Thank you for telling me about that.';
const DISTRESS =
  /\b(?:i (?:almost|nearly|actually|literally) (?:cried|was in tears)|i (?:was|am|'m|felt|feel) (?:so |really |very |completely |totally )?(?:stressed(?: out)?|distressed|panicking|panicked|terrified|devastated|in tears|in a panic|in bits|a wreck)|knot in my stomach|i broke down|i panicked|i freaked out|made me (?:cry|panic))\b/i;
/** "Please check the money of last week, I think it took two times": a request this interview cannot act on, said so, so nobody waits for it. */
export const ASK_SUPPORT = "I can't look into your account from here, so please contact the product's support about it.";
const ASKS_FOR_SUPPORT =
  /\b(?:please|pls|plz|can you|could you|can someone|could someone|would you|can anyone)\b[^.?!]{0,30}\b(?:check|look (?:at|into)|refund|fix|cancel|sort out|give (?:me )?(?:my )?money back|return (?:my|the) money|call me|contact me|email me|reset)\b[^.?!]{0,60}(?:\b(?:my|our) (?:[\w-]+ )?(?:account|payment|order|bill|invoice|card|password|booking|subscription|transfer|money)s?\b|\b(?:money|charged|charge|refund)\b)/i;
/** "Is there someone who could telephone me about the printing?": a person to help them, which nobody here can arrange. */
export const CALL_SUPPORT = "I can't arrange that from here, so please contact the product's support about it.";
const ASKS_FOR_CONTACT = /\b(?:is there (?:someone|anyone|somebody|a person)|(?:can|could|would) (?:someone|somebody|anyone|a person|you)|(?:i'?d|i would) like (?:someone|somebody) to)\b[^.?!]{0,40}\b(?:call|phone|telephone|ring|contact|email|help) (?:me|us)\b/i;
export const CLEAR_ENGLISH = 'Your English is perfectly clear, no need to apologise.';
/** Asked back when the participant is unsure what the product should have done. */
export const EXPECTED_INSTEAD = 'What did you expect it to do?';
export const NOT_RECORDED = 'Nothing is recorded but what you type here and, while you show us a task, what you click on this page. Only the team reads it.';
export const RECORDED = 'Only what you agreed to at the start is recorded, and only the team reads it.';
/** During the task the interviewer watches, so a question about the task gets no answer, only this (once, then briefly). */
export const ON_YOUR_OWN = `I can't guide you during the task: do whatever you would do on your own, and press "I'm done" when you have finished.`;
export const AS_YOU_WOULD = "Sorry, I can't help with the task: whatever you would normally do is right.";
/** To a grumble: no argument, what is left, and the way out. */
export const FAIR_ENOUGH = 'Fair enough, and thank you for bearing with it.';
/** "Is this safe?" while they work: the participant decides what to enter. */
export const YOUR_CALL = `You only need to enter what you are comfortable sharing, and you can press "I'm done" at any time.`;
export const ENGLISH_PLEASE = 'Sorry, I can only follow English here. Could you say that in English, even in a few words?';
/** "I can't do this", "I'm not doing the task": one task given up, in words all the rules below share. */
const CANT_DO = String.raw`(?:can'?t|cannot|can not) do (?:it|this)`;
const NOT_DOING = String.raw`not doing (?:it|this|the task)`;
const GIVING_UP = String.raw`give up|gave up|giving up|${CANT_DO}|quit|${NOT_DOING}`;
/** "I'm stopping this task", "I am stopping here". */
const STOPPING_TASK = String.raw`(?:i'?m|i am) stopping (?:this task|the task|this one|here)`;
/** The participant gives up or finishes the task in their own words ("OK I give up.", "ok finish"). */
const ENDS_TASK = new RegExp(
  String.raw`^(?:(?:ok(?:ay)?|hello\?*|so|right|well|alright|(?:i think )?that(?:'?s| is) (?:it|everything|all))[,.!\s]+)*(?:i think )?(?:(?:it'?s|is|that'?s me) )?(?:i'?m |im |i am |i |i'?ve |i have )?(?:all |just )?(?:done|finish(?:ed)?|${GIVING_UP}|skip(?:ping)? (?:this|it|the task))(?: now| here| then| with (?:this|it|the \w+))?(?:,? i (?:think|guess|suppose))?(?:,? (?:thank you|thanks))?[.!?]*$`,
  'i',
);
/** Giving up said in a longer message ("Hello? I said I give up. What now?"); not giving up on one step ("I give up on the search, …") or the past. */
const GIVES_UP_NOW = new RegExp(String.raw`\b(?:i give up(?: on (?:this|it|that)(?: one| task)?)?|i'?m giving up(?: on (?:this|it|that)(?: one| task)?)?|i quit|i ${CANT_DO}|(?:i'?m|i am) ${NOT_DOING}|${STOPPING_TASK}|i(?:'ll| will) stop(?: (?:this task|the task|here))?(?: and move on)?|(?:(?:i'?m|i am) )?done with (?:this|the) task)\s*(?:[.!?,]|$)`, 'i');
/** "done, well, it failed", "done! booked it", "…, consent, done - connected.": done, and how it ended; not "done, now the payment page". */
const DONE_AND_HOW = /^(?:ok(?:ay)?[,.!\s]+)?(?:all )?done[ \t]*(?:[,;:–—-]|[.!]+(?=\s))(?![ \t]*(?:now|next|then|moving|on to|going|with)\b)[^.?!]{1,60}[.!]*$|(?:^|,[ \t]*)done[ \t]*[–—-][ \t]*\w+(?: \w+)?[.!]*$/i;
/** "right, think that's it", "ok that's me", "all sorted", "that's it for now"; a bare "That's it!" may be the button found. */
const THATS_ALL = /^(?:(?:ok(?:ay)?|right|so|well|alright)[,.!\s]+)*(?:(?:i )?think that(?:'?s| is) it|that(?:'?s| is) (?:everything|all|me)|that(?:'?s| is) it (?:then|for now)|all sorted|that(?:'?s| is) as far as i can (?:get|go),? (?:finished|done))[.!]*$/i;

export function endsTask(message: string): boolean {
  const text = plain(message);
  const last = sentencesOf(text).at(-1) ?? '';
  // "ok sent it. done": the last word on it.
  return ENDS_TASK.test(text) || ENDS_TASK.test(last) || DONE_AND_HOW.test(text.trim()) || THATS_ALL.test(text.trim()) || (GIVES_UP_NOW.test(text) && words(text) <= 40);
}
export const GAVE_UP = "That's fine: where it gets hard is useful for the team to see.";
const GIVES_UP = new RegExp(String.raw`\b(?:${GIVING_UP}|forget it|${STOPPING_TASK}|i'?ll stop (?:this task|the task|here))\b`, 'i');
export const givesUp = (message: string) => GIVES_UP.test(message);
const ASKS_IF_SAFE = /\b(?:is (?:this|it|that) (?:safe|secure|legit|ok to)|(?:safe|secure) to (?:give|enter|type|put)|should i (?:give|enter|type|put) (?:my|the) (?:password|card|bank|details))\b/i;

/** The participant did not follow the question ("What do you mean?", "Like what?"): it is asked again, not answered for them. */
const CLARIFY =
  /^(?:sorry,?\s*|um,?\s*|wait,?\s*)?(?:(?:what (?:do |did )?you mean|what does that mean|(?:can|could) you (?:repeat|rephrase|say that again)|(?:i'?m |i am )?not sure what you(?:'re| are)? (?:mean|asking|want))\b.*|what means?\b.*|(?:(?:oh|sorry|ok(?:ay)?)[,.]?\s*)*(?:i (?:got|was) (?:distracted|lost)[,.]?\s*)?what was (?:the|your) question(?: again)?|(?:can|could) you (?:ask|say) (?:it|the question|that) again|[a-z' -]{2,30} is what|what(?:'s| is| are| counts as) (?:a |an |the )?["“'][^"”']{1,30}["”'](?: exactly)?(?: [^?]{0,30})?|what (?:does|do) (?:the word )?["“']?[\w'-]+(?: [\w'-]+)?["”']? mean|what (?:is|are) (?:a |an |the )?["“'][^"”']{1,30}["”']|(?:what|sorry|huh|for example)\?+|pardon(?: me)?|like what|what about it|(?:can|could) you give (?:me )?an example|what kind of (?:thing|things|example)s?|i (?:don'?t|do not|(?:am |'m )?not|no) (?:understand|get)(?: the question| it| you| what you mean| what you'?re asking| what (?:i (?:must|should|have to|need to) do|to do|you want)(?: now| here)?)?)[.!?]*$/i;
/** A word of the question not known: "i not know this word", "waitlist? what is?". */
const UNKNOWN_WORD = /^(?:i (?:don'?t|do not|(?:am |'m )?not|no) know (?:this|that|the|what (?:this|that|the)) word|[a-z' -]{1,30}\?\s*what (?:is|means?|does it mean)(?: this| that| it)?)[.!?]*$/i;
/** "How did what go?", "Use it for what?", "More useful how?": the question itself was not understood. */
const ECHO = /^(?!what\b)(?:[\w']+[\s,]+){1,6}(?:what|how|which)(?!\s+else\b)(?:\s+[\w']+)?\?+$|^(?:how|why|when|where)\s+(?:did|does|do|would|will|is|was)\s+what\b[^?]*\?+$/i;
/**
 * "How did what go? The skipping? Fine I suppose.": after asking what was meant, they guessed
 * ("The skipping?") and answered that reading. Without the guess, what follows explains the puzzle ("I am lost").
 */
const answersAfter = (rest: string[]) =>
  /\?\s*$/.test(rest[0] ?? '') && words(rest[0]) <= 5 &&
  rest.slice(1).some((x) => !/\?\s*$/.test(x) && words(x) >= 2 && !CLARIFY.test(x) && !UNKNOWN_WORD.test(x) && !/^(?:(?:um|uh|sorry|so|well),?\s*)*(?:i (?:don'?t|do not|dunno) (?:know|get)|no idea|not sure|i(?:'?m| am) (?:not sure|confused|lost))\b/i.test(x));

/** The message, or its first sentence, says the question was not understood. */
export function puzzled(message: string): boolean {
  const [first = '', ...rest] = sentencesOf(message);
  if (ECHO.test(first) && answersAfter(rest)) return false;
  // "…I think it was easy. Wait, what did you mean - before Ledgerly?": asked at the end, after a guess at an answer.
  if (/^(?:(?:wait|sorry|so|or)[,.]?\s*)*what did you mean\b.*\?$/i.test(rest[rest.length - 1] ?? '')) return true;
  // "'how did it go' is a bit vague, what do you mean exactly?": the question ends the message.
  if (words(message) <= 20 && /,\s*(?:(?:so|but|like)\s+)?what (?:do|did) you mean(?: (?:exactly|by (?:that|it|this)))?\?+$/i.test(message.trim())) return true;
  // "Sorry, which condition? The sock one, the endoscopy was £1,400…" goes on to answer: it is an answer.
  if (words(rest.join(' ')) >= 15) return CLARIFY.test(message.trim());
  // "straight away? i not know this word": a short message that ends by saying a word was not known.
  if (words(message) <= 10 && [message.trim(), first, rest.at(-1) ?? ''].some((m) => UNKNOWN_WORD.test(m))) return true;
  // "sorry. I don't understand the question. what is 'took longer'?": said of the question, in any sentence of a short message
  // ("The booking button is greyed out. I don't get it." is said of the product).
  const said = words(message) <= 20 ? sentencesOf(message).filter((x) => x === first || /\?$/.test(x) || /\bthe question\b/i.test(x)) : [first];
  return [message.trim(), ...said].some((m) => CLARIFY.test(m) || ECHO.test(m) || /^what\?+$/i.test(m));
}

/** A grumble about the interview itself ("Oh great, another survey.", "This is a waste of time.", "Happy now?"), not about the product. */
const GRUMBLE =
  /^(?:(?:ugh|sigh|oh no|great)[,!.]?\s*)?(?:not |yet )?another (?:feedback )?(?:popup|pop-up|form|one of these|questionnaire|survey)[.!]*$|^(?:ugh|sigh)[,.!]?\s*(?:more|so many) questions[.!]*$|^this is taking (?:forever|ages|so long)[.!]*$|^(?:(?:oh|well|ugh|wow|sigh|great|wonderful|fantastic|brilliant|perfect|lovely)[,!.]?\s*)*another (?:survey|questionnaire|interview)[.!]*$|^(?:honestly,?\s*|well,?\s*|ugh,?\s*)?(?:this|that)(?:'s| is)(?: (?:all|just|such|so|really))? (?:a )?(?:(?:complete |total )?waste of (?:my )?time|pointless|stupid|silly|ridiculous|boring)[.!]*$|^what a waste of time[.!]*$|^(?:happy now|(?:is )?that what you wanted(?: to hear)?|satisfied)\?+$/i;
export const isGrumble = (sentence: string) => GRUMBLE.test(sentence.trim());
/** "Why would it let me…?", "How come it…?", "Can it get any worse?": exasperation at the product in question form. */
const SAID_TO_THE_SCREEN = /^(?:(?:and|but|so|like|honestly|seriously|i mean)[, ]+)*(?:why (?:on earth |the hell )?(?:would|does|is|won'?t|can'?t|doesn'?t|isn'?t|did|didn'?t|do|should) (?:it|this|that|the (?:app|page|site|tool|button|system|form|thing))\b|how come (?:it|this|that)\b|can (?:it|this|things) (?:get|be) any (?:worse|slower|harder|more)|who (?:designed|thought of|came up with) (?:this|that))/i;
/** Annoyance at the interview said along with an answer ("Ugh, another survey. I pay by card.", "These questions are getting long, but I use Excel."). */
const ANNOYED = new RegExp(
  String.raw`\b(?:(?:these|your|all these|all your|so many of your) questions|this (?:interview|survey|questionnaire))(?: (?:are|is))? (?:so |really |a bit |getting |way too |very )?(?:annoying|tedious|boring|pointless|long|endless|repetitive|a lot)\b|\bhow many more questions\b|${SPEEDS_UP.source}|\b(?:another|yet another) (?:feedback )?(?:survey|questionnaire|popup|pop-up|form)\b|^(?:ugh|sigh)\b|\bthis is taking (?:forever|ages|so long)\b`,
  'i',
);
const annoyedAlongTheWay = (text: string) => sentencesOf(text).some((s) => isGrumble(s) || ANNOYED.test(s));
/** The participant wants the interview over sooner ("can we speed this up", "can we wrap up?", "ugh, another survey"). */
export const impatient = (message: string) => {
  const text = plain(message);
  return annoyedAlongTheWay(text) || sentencesOf(text).some((s) => ASKS_HOW_LONG.test(s));
};

const ENDS_ON_NO = /^(?:(?:no|nope|nah)[,.!]?\s+)?(?:that'?s (?:it|all|everything)|nothing(?: else)?(?: to add)?|no|nope|nah)[.!]*$/i;

/** "That was sarcasm.", "I was joking": an answer taken at its word was not meant so. */
const NOT_MEANT_SO = /\b(?:(?:that|it) was (?:sarcasm|sarcastic|a joke|irony|ironic)|i was (?:being )?(?:sarcastic|ironic|joking|kidding))\b/i;
export const TOOK_IT_WRONG = 'Sorry, I took that the wrong way.';
/** "I am sorry if that is not the kind of answer you wanted", "sorry to be so hopeless": said once, kindly. */
const APOLOGISES = /\bsorry (?:if (?:that|this|it|i)|for (?:taking|being|rambling|going on|the long|my (?:long|slow)|all (?:that|this))|to be (?:so )?(?:hopeless|useless|slow|a pain|difficult)|(?:that|this) (?:is|was) (?:so )?(?:long|rambling|confusing))\b|\b(?:i'?m|i am) (?:so |just |really )?(?:hopeless|useless|terrible|rubbish) (?:at|with)\b/i;
export const NO_NEED_TO_APOLOGISE = 'No need to apologise: this is exactly what helps.';

/** What a message is, besides (or instead of) an answer. */
export type Heard = 'stop' | 'puzzled' | 'skip' | 'already' | 'guess' | 'back' | 'added' | 'meta' | 'grumble' | 'foreign' | 'question' | null;

/** "Can we go back to the previous question?", "I want to add something to the last one": the question before, again. */
const GOES_BACK =
  // "go back" to a question, or said alone ("Can we go back?"); not "I'll go back to my Word template".
  /\b(?:go back(?: one)?(?:(?: (?:one|a) (?:more )?(?:question|step))(?: to (?:the )?(?:previous|last|earlier|other) (?:question|one))?| to (?:the )?(?:previous|last|earlier|other) (?:question|one)|(?: (?:one )?more time)?(?:,? please)?(?=\s*[?.!]*\s*$|[?.!,]))|back to (?:the )?(?:previous|last|earlier) (?:question|one)|(?:answer|add (?:something|more) to|change my answer to) (?:the )?(?:previous|last|earlier) (?:question|one)|(?:go back|back|add (?:something|more)|come back) to (?:the |your )?first (?:question|one))\b/i;

/** "wait no, sorry, I misread that. I meant: …": an answer put right; what follows is the answer they meant. */
export const CORRECTS =
  /^(?:(?:wait|sorry|oh|oops|hang on|hold on|no|ah|actually)[,.!:]*\s+)*(?:i (?:misread|misunderstood|mixed up|got (?:that|it) wrong)(?: (?:that|it|this|the question|your question))?(?: again)?|that'?s not what i meant|(?:let me|i'?ll|i (?:need|want) to) correct (?:that|myself|my answer))\b/i;
export const CLARIFIED = 'Thanks for clarifying.';
const THING = String.raw`((?:the |a |an |my |our )?[a-z][\w-]*(?: [a-z][\w-]*)?)`;
/** "Sorry, I meant the invoices, not the quotes.", "Not a quote, an invoice.": one word put right. */
const MEANT_NOT = new RegExp(String.raw`\bi (?:meant|mean|was talking about)\s+${THING},?\s+(?:and )?not\s+${THING}\b`, 'i');
const NOT_BUT = new RegExp(String.raw`^(?:(?:sorry|no|oh|well|nope)[,.!]?\s*)*not\s+${THING},\s*(?:but\s+)?${THING}\s*[.!]`, 'i');
const bareThing = (phrase: string) => phrase.toLowerCase().replace(/^(?:the|a|an|my|our) /, '');
/** The word a participant put right and the one they meant (as they said them: `said`), when the message does. */
export function correctionOf(message: string): { meant: string; not: string; said: string } | null {
  const text = plain(message);
  const m = MEANT_NOT.exec(text);
  const n = m ? null : NOT_BUT.exec(text);
  const [meant, not] = m ? [m[1], m[2]] : n ? [n[2], n[1]] : [];
  return meant && not ? { meant: bareThing(meant), not: bareThing(not), said: `${meant.toLowerCase()}, not ${not.toLowerCase()}` } : null;
}
/** One form of a noun: "quotes" and "quote" are one word put right. */
export const singular = (w: string) => (/ies$/.test(w) ? `${w.slice(0, -3)}y` : /(?:ss|sh|ch|x|z)es$/.test(w) ? w.slice(0, -2) : /[^s]s$/.test(w) ? w.slice(0, -1) : w);
/** The interviewer said the word the participant put right ("What did you use to send a quote before?"). */
const saidBy = (said: string, word: string) => new RegExp(`\\b${escapeRegExp(singular(word))}(?:s|es)?\\b`, 'i').test(said);
/** "Oh and going back to tools — I forgot, we also use Looker Studio": something added to an earlier answer, along with this one. */
const ADDS_TO_EARLIER = /\b(?:going back to (?:the |what i said about |my answer about )?\w+|(?:oh|and|also),? i forgot(?: to (?:say|mention))?,? (?:we|i|that|there)|one more thing about \w+)\b/i;
/** "Wait.", "I want to add something.": going back announced, nothing added yet. */
const ANNOUNCES_ADDING =
  /^(?:(?:wait|sorry|hang on|hold on|actually|um+|oh)\b[,.!\s]*)+$|\b(?:add (?:something|a thing|one thing|more|to (?:it|that|my answer))|something (?:to add|else to say)|one more thing|forgot (?:something|to (?:say|mention) (?:something|a thing)))[.!]*$/i;

/** The participant asks about the interview itself: who asks, why, who reads it. */
const isMeta = (sentence: string) => SPEEDS_UP.test(sentence) || ASKS_REWARD.test(sentence) || PUSHES_BACK.test(sentence) || ASKS_DATA_USE.test(sentence) || ASKS_ANONYMOUS.test(sentence) || ASKS_WHO_SEES.test(sentence) || ASKS_WHO.test(sentence) || ASKS_ABOUT_RECORDING.test(sentence) || ASKS_WHY.test(sentence) || ASKS_WHO_READS.test(sentence) || ASKS_HOW_LONG.test(sentence);

/** "What are covers?" after a question about covers: a word of the question was not understood. */
const WHAT_IS = /^(?:sorry,?\s*)?what(?: is| are|'s| does| do)(?: a| an| the)? ["“']?([\p{L}' -]{3,40}?)["”']?(?: mean)?\s*\?+$/iu;
const asksWhatItMeans = (text: string, asked?: string) => {
  const term = WHAT_IS.exec(text)?.[1]?.trim().toLowerCase();
  if (!term || /^(?:you|your|it|this|that|they|we|he|she|there|here|yours)$/.test(term)) return false;
  return !!asked && new RegExp(`\\b${escapeRegExp(term)}\\b`, 'i').test(asked);
};

/** "subscribed to what, the meal boxes?", "use what?", "what happened next with what?": a word of the question said back with "what". */
const SAID_BACK_WITH_WHAT = /^(?:(?:sorry|um|uh|hmm)[,.]?\s*)?((?:[\p{L}'-]+\s+){1,4})what\s*(?:,\s*([^?]{2,60}))?\?+$/iu;
/** "what old way?", "which step?": the question's own words asked about. */
const WHAT_THE_WORDS = /^(?:(?:sorry|um|uh|hmm)[,.]?\s*)?(?:what|which)\s+((?:[\p{L}'-]+\s*){1,3})\?+$/iu;
const saidBackWithWhat = (text: string, asked?: string): 'puzzled' | 'guess' | null => {
  const w = WHAT_THE_WORDS.exec(text.trim());
  if (w && asked && w[1].trim().split(/\s+/).every((x) => new RegExp(`\\b${escapeRegExp(x)}\\b`, 'i').test(asked))) return 'puzzled';
  const m = SAID_BACK_WITH_WHAT.exec(text.trim());
  if (!m || !asked) return null;
  const echoed = m[1].toLowerCase().split(/\s+/).filter((x) => x.length >= 3 && new RegExp(`\\b${escapeRegExp(x)}`, 'i').test(asked));
  return echoed.length ? (m[2] ? 'guess' : 'puzzled') : null;
};

/** What a message is; `asked`, the question it answers, tells a word of it not understood ("What are covers?"). */
export function heardAs(message: string, asked?: string): Heard {
  const text = plain(message);
  const said = sentencesOf(text);
  if (WANTS_TO_STOP.test(text) || ENDS_INTERVIEW.test(text) || (HAS_NO_TIME.test(text) && words(text) <= 8 && !/short on time (?:at|on|during|when|every|in)\b/i.test(text))) return 'stop';
  const saysItAlready = said.some((x) => SAID_IT_ALREADY.test(x));
  // "why what? why 4? I already explained": said already, however puzzled it sounds.
  if (words(text) <= 15 && saysItAlready) return 'already';
  // "Huh? Whatever. No, that's all." to "Anything else?": the no it ends on is the answer.
  if (asked && ANYTHING_MORE.test(asked) && said.length > 1 && words(text) <= 10 && ENDS_ON_NO.test(said.at(-1) ?? '')) return null;
  if (puzzled(text) || asksWhatItMeans(text, asked)) return 'puzzled';
  const saidBack = saidBackWithWhat(said[0] ?? '', asked);
  // "How did what go? The skipping? Fine I suppose.": their own reading, answered; an answer.
  if ((saidBack === 'puzzled' || ECHO.test(said[0] ?? '')) && answersAfter(said.slice(1))) return null;
  if (saidBack) return saidBack;
  if (notEnglish(text)) return 'foreign';
  if (SKIPS.test(text)) return 'skip';
  if (ASKED_AGAIN.test(text) && words(text) <= 12) return 'already';
  // "I already told you, Excel and Outlook. …": said first, it is heard however much follows.
  // "Are you even reading this? I literally just told you. Letter. …": said alone as a sentence, anywhere.
  if (ALREADY.test(text) && (words(text) < 10 || OPENS_ALREADY.test(text) || saysItAlready)) return 'already';
  // "Can I go back to the first question? I also came to check the churn number.": going back, with what they went back to add.
  if (CORRECTS.test(text) && words(text.replace(CORRECTS, '')) >= 4) return 'added';
  if (words(text) <= 30 && GOES_BACK.test(text)) return said.filter((x) => !GOES_BACK.test(x) && !ANNOUNCES_ADDING.test(x)).reduce((n, x) => n + words(x), 0) >= 5 ? 'added' : 'back';
  // "Going ok. Oh wait, did you mean how the invoicing went?": the guess at the end is what needs an answer.
  // "…that was like 2 years ago, I emailed support. do you mean how I did it today?": answered first, so the answer stands.
  // "Is what I wrote tied to my name or account?" is about the interview, not a reading of the question;
  // so is "A voucher or something?" after "Will I get anything for doing this?".
  if (said.length <= 3 && guesses(said[said.length - 1] ?? '') && !said.some(isMeta) && !wishAsked(text, asked)) return words(said.slice(0, -1).join(' ')) < 10 ? 'guess' : null;
  // Only questions about the interview, perhaps with a word or two more ("Sorry, who are you?"): no answer yet.
  // "…is this being recorded? like the screen?": a short question alongside is part of it.
  // "Jordan. Are you even reading my answers?": a name said first is the answer, with the question beside it.
  const aside = (s: string) => words(s) <= 2 && (/\?\s*$/.test(s) || /^(?:ok(?:ay)?|hmm+|um+|uh+|er+m?|sorry|wait|well|so|huh|what|yes|yeah|yep|no|nope|hey|hi|hello|right|fine|sure|also|and|but|seriously|honestly|nothing|none|whatever|ugh|again|come on)\b[\s\w]*[.!,]*$/i.test(s));
  if (said.some(isMeta) && said.every((s) => isMeta(s) || aside(s) || (words(s) <= 4 && /\?$/.test(s)) || (PUSHES_BACK.test(said.join(' ')) && words(s) <= 12 && !/^[A-Z][a-z]+[.!]*$/.test(s.trim())))) return 'meta';
  if (said.some(isGrumble) && said.every((s) => isGrumble(s) || words(s) <= 2)) return 'grumble';
  // "It went. Is that what you wanted to hear?": the grumble is no question to acknowledge.
  // "Why would it let me enter an invalid IBAN? No idea.": a question to the screen, in a story that goes on, is not asked of us.
  if (said.some((s, k) => asksSomething(s) && !isGrumble(s) && !echoes(s, asked) && !checksWhatWasMeant(said, k) && !(SAID_TO_THE_SCREEN.test(s) && k < said.length - 1))) return 'question';
  return null;
}

/** "When it broke? I'd reconnect the Zap and re-run it…": a short question at the start checks what was meant, and the answer follows. */
const checksWhatWasMeant = (said: string[], k: number) => {
  // "Can it export to PDF? That would help…" asks the team something: not this.
  if (k > 1 || words(said[k]) > 5 || !/\?\s*$/.test(said[k]) || /^(?:can|could|does|do|did|is|are|was|will|would|should|has|have|why)\b/i.test(said[k].trim())) return false;
  const rest = said.slice(k + 1);
  return rest.length > 0 && rest.every((s) => !/\?\s*$/.test(s) && !asksSomething(s)) && rest.reduce((n, s) => n + words(s), 0) >= 6;
};

/** The participant's sentence says the question back ("How did it go? Wonderful. Ten out of ten."): no question of theirs. */
const bareWords = (text: string) => text.toLowerCase().replace(/[^\p{L}\p{N}\s']/gu, ' ').replace(/\s+/g, ' ').trim();
const echoes = (sentence: string, asked?: string) => !!asked && words(sentence) >= 2 && (` ${bareWords(asked)} `.includes(` ${bareWords(sentence)} `) || saysQuestionBack(sentence, asked));

/** Every sentence of the message asks something and none is a wish put as a question: a question in place of an answer. */
export const onlyAsks = (message: string, asked?: string) => {
  const said = sentencesOf(plain(message));
  return said.length > 0 && said.every((s) => asksSomething(s) || /\?\s*$/.test(s)) && !wishAsked(message, asked);
};

/** "Is there anything else…?", "…anything we didn't cover?": a no to it is the answer. */
export const ANYTHING_MORE = /\banything (?:else|more|we (?:didn'?t|did not|haven'?t|have not) (?:cover|ask(?: about)?|talk about|discuss)|(?:you'?d|you would) (?:like to add|(?:want|like) (?:us|me) to know)|to add|we missed|i missed)\b/i;

/** "Not sure the export did anything. Should it have?": unsure what the product was meant to do, which the interviewer asks about. */
export const ASKS_WHAT_WAS_MEANT = /\b(?:should (?:it|that|this|i) have(?: (?:got(?:ten)?|received|seen|had|done))?\b|(?:was|is) (?:it|that|this) supposed to\b|(?:did|does) (?:it|that) (?:even )?(?:do|work)(?: anything)?\s*\?)/i;

/** "Can we talk about pricing?", "Can I tell you about the app?": asking to say something, which the interviewer takes up. */
export const ASKS_TO_TALK = /\b(?:can|could|may) (?:we|i) (?:(?:also |please )?(?:talk|speak|chat|say something|tell you(?: something)?)) about ([^?.!,]{2,40})\??\s*$/i;

/** A question that asks for a change in the product. */
const WISH_QUESTION = /^(?:(?:and|but|so|also),?\s+)?(?:(?:could|can|would|will) (?:it|you|they|the (?:app|product|system|tool|site))\b|is there (?:a|any) way\b|why (?:can'?t|doesn'?t|isn'?t|won'?t) (?:it|the|they)\b)/i;
/** A question that asks what would make the product better. */
const INVITES_WISHES = new RegExp(`\\b(?:more useful|what would (?:make|you change|help)|what would you (?:like|want)|if you could (?:change|add|fix|have))\\b|${ANYTHING_MORE.source}`, 'i');

/** A wish put as a question ("Could it just remember that I'm not VAT registered?") to a question that asks for one: the answer itself. */
const wishAsked = (message: string, asked?: string) => !!asked && INVITES_WISHES.test(asked) && sentencesOf(plain(message)).some((x) => WISH_QUESTION.test(x));

/** A rating scale in the question: "On a scale of 1-5, how easy…", "from 1 to 10, how likely…". */
export const RATING_SCALE = /\b(0|1)\s*(?:-|–|to)\s*(5|7|10)\b/;
/** Which end of the scale is which: "is 5 easy or hard?", "what does 1 mean?", "is higher better?", "1 being the best?" */
const ASKS_ABOUT_SCALE =
  /\b(?:is|does|would) (?:a )?(?:\d{1,2}|one|five|ten)\b[^?]{0,25}\b(?:good|bad|easy|hard|easier|harder|high|low|best|worst|better|worse|top|bottom|mean)\b|\bwhich (?:way|end|number)\b[^?]{0,20}\b(?:round|good|best|better|easy|easiest|high|highest)\b|\bwhat does (?:a )?(?:\d{1,2}|one|five|ten) mean\b|\bis (?:high|higher|low|lower|bigger|smaller) (?:good|better|easy|easier|best)\b|\b(?:\d{1,2}|one|five|ten) (?:being|is|=) (?:the )?(?:best|worst|easiest|hardest|highest|lowest|good|bad|easy|hard)\b[^.]*\?/i;

/** Which end of the question's scale is which, for a participant who asks; null when the question has no scale. */
export function scaleExplained(message: string, asked?: string): string | null {
  const scale = asked ? RATING_SCALE.exec(asked) : null;
  if (!scale || !ASKS_ABOUT_SCALE.test(message)) return null;
  const how = /\bhow ([a-z]+)\b/i.exec(asked!.slice(scale.index))?.[1]?.toLowerCase();
  return how && !['much', 'many', 'often', 'long', 'would', 'do', 'did', 'was', 'is'].includes(how)
    ? `${scale[1]} means not at all ${how} and ${scale[2]} means very ${how}.`
    : `${scale[1]} is the lowest and ${scale[2]} the highest.`;
}

/** What the interviewer knows besides the message: what it has said in this interview, the parts left, whether recording was agreed. */
export interface Context {
  said?: string;
  /** The question the message answers: to "What would make it more useful?", "Could it remember…?" is a wish, not a question. */
  asked?: string;
  partsLeft?: number;
  recorded?: boolean;
  /** How long the study says it takes ("About 10 minutes" on its invitation). */
  minutes?: number;
  /** The participant gave a name or e-mail with this interview. */
  named?: boolean;
  /** The rating question of this part, when a follow-up came after it: "is 1 easy or hard?" is about its scale. */
  rating?: string;
}

/** "After this, there are 2 more short topics to cover. " ("" when not known): the topic under way is not counted as left. */
const partsLeftLine = (partsLeft?: number) => {
  if (partsLeft === undefined) return '';
  if (partsLeft <= 1) return 'This is the last topic. ';
  return partsLeft === 2 ? 'After this, there is one more short topic to cover. ' : `After this, there are ${partsLeft - 1} more short topics to cover. `;
};

/** How much is left, said again in short: "Just this and 3 more short topics." */
const stillLeft = (partsLeft?: number) =>
  partsLeft === undefined ? "We're getting there, thank you for bearing with it." : partsLeft <= 1 ? 'This is the last topic.' : `Just this and ${partsLeft - 1} more short ${partsLeft === 2 ? 'topic' : 'topics'}.`;

/** The line for a question about the interview itself, or null. */
function aboutTheInterview(text: string, { partsLeft, recorded, minutes, named, said = '' }: Context): string | null {
  const anonymity = ASKS_ANONYMOUS.test(text);
  // "…in minutes? and will my manager see what I write?": each question asked is answered.
  const lines = [
    PUSHES_BACK.test(text) && NOT_ASSUMING,
    ASKS_WHO_SEES.test(text) && !anonymity && ONLY_THE_TEAM,
    ASKS_DATA_USE.test(text) && !anonymity && !ASKS_WHO_SEES.test(text) && DATA_USE,
    ASKS_WHO.test(text) && WHO_WE_ARE,
    ASKS_ABOUT_RECORDING.test(text) && (recorded ? RECORDED : NOT_RECORDED),
    ASKS_WHY.test(text) && !ASKS_WHO_SEES.test(text) && (said.includes(WHY_WE_ASK) ? WHY_IT_HELPS : WHY_WE_ASK),
    anonymity && (named ? ANONYMITY_NAMED : ANONYMITY),
    ASKS_WHO_READS.test(text) && !ASKS_WHO_SEES.test(text) && WHO_READS,
    ASKS_REWARD.test(text) && REWARD,
    (ASKS_HOW_LONG.test(text) || SPEEDS_UP.test(text) || (minutes && IN_MINUTES.test(text))) && `${minutes ? `It takes about ${minutes} minutes in all. ` : ''}${partsLeftLine(partsLeft)}${FREE_TO_GO}`,
  ].filter((l): l is string => !!l);
  // "Who are you? Why do you want to know?": the team reading every answer is said once.
  const reads = /,? and the team reads every answer\.$/;
  if (lines.includes(WHO_WE_ARE)) lines.forEach((l, k) => (lines[k] = l.replace(reads, '.')));
  return lines.length ? lines.join(' ') : null;
}
/** "In minutes?", "roughly how many minutes?": how long, asked again in other words. */
const IN_MINUTES = /\b(?:in minutes|how many minutes|roughly how long)\b/i;

/** A question about what the product does or will do: "will it work on my phone?", "do you have a mobile app planned?" */
const ASKS_ABOUT_THE_PRODUCT = /\b(?:(?:is|will|does|can|would) (?:this|it|the (?:app|product|site|tool|software))(?: thing| app| tool)? (?:going to |gonna |ever )?(?:work (?:on|with|offline)|run on|sync (?:with|to)|integrate with|connect to|support|have (?:an?|any) |offer|let (?:me|us) )|do you (?:guys |folks )?(?:have|plan|offer) (?:an?|any) (?!idea)|any plans? (?:to|for)|on the roadmap)/i;
/** "I kept thinking, will it ever work?", "Why would it let me…?", "My boss asked me, does this…?": said in a story, not asked of us. */
const productQuestion = (sentence: string) => /\?$/.test(sentence) && ASKS_ABOUT_THE_PRODUCT.test(sentence) && !/^(?:why|how)\b/i.test(sentence) && !/\b(?:thinking|thought|wondering|wondered|asked(?: me)?|said|like),/i.test(sentence);

/**
 * What the built-in interviewer says first, if anything, so the participant knows they were
 * heard. `said` is what the conductor has said in this interview: a line about the interview
 * comes once; the can't-answer line comes once in full, once briefly, then not again.
 */
export function acknowledgement(typed: string, context: Context = {}): string | null {
  // Answers are typed in a hurry: a last sentence in question order is a question without its "?"
  // (while working on a task, it is thinking aloud, so `whileWorking` keeps the mark's rule).
  const message = markedAsQuestion(typed);
  const said = context.said ?? '';
  const once = (line: string) => (said.includes(line) ? null : line);
  const lines: Array<string | null> = [];
  // "Sorry, I meant the invoices, not the quotes.": taken up at once, and said so; later questions use their word (goal.ts).
  const fixed = correctionOf(message);
  if (fixed && saidBy(said, fixed.not)) lines.push(once(`Got it: ${fixed.said}.`));
  if (NOT_MEANT_SO.test(message)) lines.push(once(TOOK_IT_WRONG));
  if (APOLOGISES.test(message) && !APOLOGISES_FOR_ENGLISH.test(message)) lines.push(once(NO_NEED_TO_APOLOGISE));
  if (APOLOGISES_FOR_ENGLISH.test(message)) lines.push(once(CLEAR_ENGLISH));
  if (DISTRESS.test(message)) lines.push(once(THANK_YOU_FOR_TELLING));
  const support = ASKS_FOR_SUPPORT.test(message);
  if (support) lines.push(once(ASK_SUPPORT));
  else if (ASKS_FOR_CONTACT.test(message)) lines.push(once(CALL_SUPPORT));
  const kind = heardAs(message, context.asked);
  // Taken up by the interviewer, who asks about it (interviewer.ts): nothing to pass on.
  if (ASKS_TO_TALK.test(message.trim()) || (ASKS_WHAT_WAS_MEANT.test(message) && !said.includes(EXPECTED_INSTEAD))) return lines.filter(Boolean).join(' ') || null;
  const scale = kind !== 'stop' && kind !== 'skip' ? scaleExplained(message, context.asked) ?? scaleExplained(message, context.rating) : null;
  if (scale) lines.push(scale);
  else if (kind === 'stop') lines.push(STOPPING);
  else if (kind === 'skip') lines.push(SKIPPED);
  else if (kind === 'already') lines.push(ALREADY_SAID_AGAIN.find((line) => !said.includes(line)) ?? ALREADY_SAID);
  else if (kind === 'back') lines.push(GOING_BACK);
  else if (kind === 'added' || (kind === null && ADDS_TO_EARLIER.test(plain(message)))) lines.push(CORRECTS.test(plain(message)) ? CLARIFIED : NOTED_LAST);
  else if (kind === 'guess') lines.push(/\bor\b/i.test(message) ? EITHER_WAY : YOUR_READING);
  // A grumble alone, or one said along with an answer: no argument, what is left, the way out (once).
  else if ((kind === 'grumble' || (kind === null && annoyedAlongTheWay(plain(message)))) && !said.includes(FAIR_ENOUGH)) lines.push(`${FAIR_ENOUGH} ${partsLeftLine(context.partsLeft)}${FREE_TO_GO}`);
  // "You did not answer whether it is anonymous. Anyway, I came to…": the question about the interview, beside the answer.
  // "…Speaking of which, is this thing going to work on my phone? I'm never at a desk.": a question about the product inside an answer, passed on.
  else if (kind === null && sentencesOf(plain(message)).some(productQuestion)) lines.push(PASSED_ON.find((line) => !said.includes(line)) ?? NOTED);
  // "Use for what? … Is this survey going to take long?": puzzled, and asking about the interview too.
  else if (kind === 'meta' || (kind === 'question' && !support && !wishAsked(message, context.asked)) || ((kind === null || kind === 'puzzled') && sentencesOf(plain(message)).some(isMeta))) {
    const about = aboutTheInterview(message.trim(), context);
    // Asked again whether it is anonymous ("Again: are my answers anonymous or not?"): answered again, briefly.
    // "Can we speed this up?" after "how long?" was answered in this part: what is left, briefly, rather than silence.
    const hurried = ASKS_HOW_LONG.test(message) || SPEEDS_UP.test(message);
    if (about) lines.push(once(about) ?? (ASKS_ANONYMOUS.test(message) ? (context.named ? ANONYMITY_NAMED_AGAIN : ANONYMITY_AGAIN) : hurried ? once(stillLeft(context.partsLeft)) : null));
    else if (kind !== null) lines.push(PASSED_ON.find((line) => !said.includes(line)) ?? NOTED);
  }
  const out = lines.filter((l): l is string => !!l);
  return out.length ? out.join(' ') : null;
}

/**
 * What the interviewer says to a message typed during the task: nothing to thinking aloud; a
 * question about the interview is answered once; any other question, or puzzlement, is told the
 * task is theirs to do as they would (once in full, once briefly, then silence, as it watches).
 */
/** What the product can do or will do, asked during a task: passed on to the team rather than refused as help. */
const ASKS_ABOUT_PRODUCT = /\b(?:do you know if|does (?:it|this|the (?:app|product|site|tool)|\w+) (?:integrate|work|sync|connect|support|have|offer)|is (?:there|it) going to|will (?:it|there|you) (?:ever )?(?:have|get|add|support)|(?:is|are) \w+(?: \w+)? on the roadmap|any plans? (?:to|for))\b/i;

/** A question about what the task asks for ("which one do you want me to…", "what am I supposed to do"), not how to do it. */
const ASKS_WHAT_THE_TASK_IS = /\b(?:(?:which|what) (?:\w+ )?(?:do|did) you want me to|(?:what|which \w+) (?:am i|was i) (?:supposed|meant) to|what (?:is|was) the task|what should i (?:do|submit|use|pick|choose) (?:here|now|for (?:this|the task))?\s*\?*$)/i;

export function whileWorking(message: string, context: Context & { task?: string; reply?: string | null } = {}): string | null {
  const said = context.said ?? '';
  if (UNSURE_TO_GO_ON.test(message)) return said.includes(UP_TO_YOU) ? null : UP_TO_YOU;
  if (ASKS_IF_SAFE.test(message)) return said.includes(YOUR_CALL) ? null : YOUR_CALL;
  const text = plain(message);
  // "do I do this here or on the page behind?": where, not how.
  if (WHERE_TO_WORK.test(text)) return said.includes(ON_THE_PAGE) ? null : ON_THE_PAGE;
  // "Is it ok if I use the calendar view instead?": their way is the one to see.
  if (ASKS_PERMISSION.test(text)) return said.includes(ALLOWED) ? null : ALLOWED;
  // "wait no, sorry, I misread that. I meant: …" typed during the task: heard, once.
  if (CORRECTS.test(text) && words(text.replace(CORRECTS, '')) >= 4) return said.includes(CLARIFIED) ? null : CLARIFIED;
  // "hello?" while they work: the interviewer is there, once.
  if (CALLS_OUT.test(text)) return said.includes(STILL_HERE) ? null : STILL_HERE;
  // "giving up on that part, sorry": one step given up, the task goes on.
  if (givesUp(text) && !said.includes(GAVE_UP)) return GAVE_UP;
  // "WHY DOES THIS KEEP HAPPENING???" is said to the screen, not to the interviewer.
  if (shouted(message) || /^why (?:does|is|won'?t|can'?t|doesn'?t|isn'?t|do|did) (?:this|it|that)\b/i.test(text)) return null;
  const kind = heardAs(message);
  // The guide's own answer to a question during the task ('If they ask, say: "…"'), once, before anything of ours.
  if ((kind === 'question' || kind === 'puzzled') && context.reply && !said.includes(context.reply) && !ASKS_ABOUT_PRODUCT.test(text)) return context.reply;
  // "wait, do you mean do it right now, here?", "Should I actually skip the week now or just pretend?": yes, as they would.
  // Asked, not said ("Okay, I'll actually do it. … Can you tell me where it is?" asks for help).
  const nowAndHere = sentencesOf(text).some((x) => /\?\s*$/.test(x) && NOW_AND_HERE.test(x));
  if ((kind === 'guess' || kind === 'question' || kind === 'puzzled') && nowAndHere && !said.includes(HERE_AND_NOW)) return HERE_AND_NOW;
  // "What must I do now?": the task again, once.
  const again = context.task ? `Sorry, that was unclear. ${context.task}` : null;
  if (kind === 'puzzled' && again && !said.includes(again)) return again;
  // "Which receipt do you want me to submit?": what the task is, not help with doing it; the task again, once.
  if (kind === 'question' && again && !said.includes(again) && ASKS_WHAT_THE_TASK_IS.test(text)) return again;
  // "Wait, are you recording my screen? I would be typing my bank account number.": asked along with thinking aloud, still answered.
  if (kind === 'meta' || sentencesOf(text).some(isMeta)) {
    const about = aboutTheInterview(message.trim(), context);
    return about && !said.includes(about) ? about : null;
  }
  // "I am not certain what export means in this context; is it sending it abroad?": what they make of it is what the team
  // needs to see, so it is asked back, once, as a researcher watching would.
  if (ASKS_WHAT_IT_MEANS.test(text) && /\?/.test(text) && !said.includes(WHAT_DO_YOU_THINK)) return WHAT_DO_YOU_THINK;
  // "I'm not sure where to start, I don't see invoices on this page.": asked what they would try, once, never shown how.
  // Asked for help ("Where do I click? I can't find it."), they are told the task is theirs, below.
  if (kind !== 'question' && STUCK.test(text) && !said.includes(ON_YOUR_OWN_NEXT)) return ON_YOUR_OWN_NEXT;
  if (kind !== 'question' && kind !== 'puzzled' && kind !== 'guess') return null;
  // "I don't have a housemate, do you mean my husband?": their reading of the task is the one to go with.
  if (kind === 'guess' && !said.includes(EITHER_WAY)) return EITHER_WAY;
  // "Do you know if it integrates with Square?": a question about the product, not help with the task.
  if (kind === 'question' && ASKS_ABOUT_PRODUCT.test(text)) return PASSED_ON.slice(1).find((line) => !said.includes(line)) ?? null;
  // "ok I see revenue grow 12%. but is 12% of what? I not see the euro number.": a question to the screen among
  // what they see is thinking aloud; only a request for help is told the task is theirs.
  if (kind === 'question' && !ASKS_FOR_HELP.test(text) && sentencesOf(text).some((x) => !/\?\s*$/.test(x) && !asksSomething(x))) return null;
  if (!said.includes(ON_YOUR_OWN)) return ON_YOUR_OWN;
  return said.includes(AS_YOU_WOULD) ? null : AS_YOU_WOULD;
}
/** "What does Export mean here?", "not sure what this button does": asking what something on the screen is for. */
const ASKS_WHAT_IT_MEANS = /\b(?:what (?:does|do|would) (?:(?:this|that|the) )?['"“]?[\w-]+['"”]?(?: [\w-]+)? (?:mean|do)\b|(?:not (?:certain|sure)|no idea|don'?t know) what (?:this |that |the )?['"“]?[\w-]+['"”]? (?:means|does|is for)\b|what is (?:this|that|the [\w-]+) for\b)/i;
export const WHAT_DO_YOU_THINK = 'What do you think it does? Go with whatever you would do.';

/** "do you mean do it right now, here?", "should I actually do it?" */
const NOW_AND_HERE = /\b(?:(?:do|doing|try|trying) it (?:right )?(?:now|here)|right now|(?:for real|actually do it|on this (?:page|site)|really do it)|(?:should|do|must) i (?:actually|really) \w+|or (?:just )?pretend|(?:will|would) it (?:really|actually) \w+)\b/i;
export const HERE_AND_NOW = 'Yes, here and now, as you normally would.';
const WHERE_TO_WORK = /\b(?:here or (?:on|in) the (?:page|site|app|window)|(?:on|in) the (?:page|site|window) (?:behind|underneath|below)|(?:do i|should i) (?:do|type|work) (?:it|this) in this (?:window|box|chat)|where do i do (?:it|this|the task))\b/i;
export const ON_THE_PAGE = `On the page itself: this window stays open while you work, and "I'm done" is here when you have finished.`;
const ASKS_PERMISSION = /\b(?:is it (?:ok(?:ay)?|alright|fine|allowed) (?:if i|to)|(?:can|may) i (?:just )?(?:use|try|go (?:to|via|through)|do it (?:with|in|via|another))|am i allowed to)\b/i;
export const ALLOWED = 'Yes: do it however you normally would.';
/** "hello?", "anyone there?": calling out to the interviewer, not a note or a question about the task. */
export const CALLS_OUT = /^(?:hello+|hi|hey|anyone there|are you (?:still )?there|still there)\?*[.!?]*$/i;
export const STILL_HERE = `I'm here. Carry on as you would, and press "I'm done" when you have finished.`;
/** "I am stuck here", "not sure where to start": stuck on the task, said rather than asked. */
const STUCK = /\b(?:(?:i'?m|i am|im) (?:so |totally |completely |a bit |kind of )?(?:stuck|lost)\b|(?:not sure|no idea|(?:i )?don'?t know) (?:where|how) to (?:start|begin|go|look)|(?:i )?can'?t (?:find|see) (?:it|anything|where)\b)/i;
/** To a participant stuck on the task: what they would do, which is what the team needs to see, without a hint. */
export const ON_YOUR_OWN_NEXT = 'That is useful to see. What would you try next if you were on your own?';
/** "Where do I click?", "can you help me", "what should I do now": asking for help with the task. */
const ASKS_FOR_HELP = /\b(?:(?:where|how) (?:i|we) (?:find|get|do|start)\b|(?:where|how|what|which|who) (?:do|should|can|must|shall|would) (?:i|we)|(?:can|could|would) you (?:just |please )?(?:help|tell|show|explain|guide)|should i\b|do i (?:need|have) to|am i (?:supposed|meant)|what now|help me|is (?:this|that|it) (?:right|correct|the right)|did i do (?:it|that|this) right|where is|where'?s|how to)\b/i;
