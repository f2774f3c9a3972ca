import { clock } from '../common.ts';
import { sentences } from '../../core/sentences.ts';
import { nounPhrases } from '../../core/nlp.ts';
import { HEADLINE_MAX, describe } from './headline.ts';
import type { EvidenceGrade, ExtractedEvidence, Extractor, SignalType, TargetSurface, Turn } from './types.ts';

/**
 * The offline extractor: reads the participant's sentences and recognises the SPEC 2.6.1
 * signal types from how people talk about their work. Deterministic, fast, no network.
 * Every quote it proposes is a sentence copied verbatim from a transcript segment.
 */
type Pattern = [RegExp, number];

const P: Record<SignalType, Pattern[]> = {
  struggling_moment: [
    [/\b(couldn'?t|could not|can'?t|cannot|wasn'?t able to|unable to) (find|figure|work out|see|tell|get|understand|locate|remember)/i, 0.9],
    [/\b(confus(ed|ing)|baffl|puzzl|no idea (how|where|what)|didn'?t know (how|where|what|which|whether|if))/i, 0.85],
    [/\b(hard|difficult|tricky|painful|tedious|a pain|a nightmare|clunky|cumbersome) to\b/i, 0.85],
    [/\b(was|is|were|got|felt|it'?s) (really |so |pretty |quite |very |super |a bit )?(hard|difficult|tricky|painful|tedious|clunky|cumbersome|overwhelming)\b/i, 0.8],
    [/\b(stuck|struggl|took (me )?(forever|ages|a while|too long|way too long))/i, 0.85],
    [/\b(spent|took|wasted)( me| us)? (?!(only|just|a few|a couple|under|less|about a|one|two)\b)(\w+ ){0,3}(ages|hours?|forever|minutes|an hour|half an hour|all (day|morning|afternoon|evening))\b/i, 0.8],
    [/\bkept [a-z]+ing\b/i, 0.7],
    [/\bfor (ages|hours|forever|(\d+|five|ten|fifteen|twenty|thirty|forty|a few) minutes)\b/i, 0.75],
    [/\b(found nothing|couldn'?t find anything|nothing (useful|helpful)|no luck|nothing happened|didn'?t do anything)\b/i, 0.85],
    [/\bkept (clicking|looking|searching|going back|trying|sending|showing|asking|giving|telling|saying|refreshing)\b|\b(went|going) back and forth/i, 0.75],
    [/\b(have|had) to (\w+ ){0,3}(each|every one|one by one|by hand|manually|all over again)\b/i, 0.8],
    [/\b(hidden|buried|not obvious|wasn'?t obvious|wasn'?t clear|isn'?t clear|unclear|doesn'?t make sense|didn'?t make sense|makes no sense)\b/i, 0.75],
    [/\b(didn'?t|doesn'?t|don'?t|won'?t|wouldn'?t) (tell|show|understand|let|remember|warn|accept|recognise|recognize|say)\b/i, 0.75],
    [/\b(showed|shows|show) (me )?nothing|\b(\w+|\d+) (attempts|tries)\b|\bthe worst (part|bit|thing)\b|\bwere (all )?gone\b/i, 0.8],
    [/\b(annoying|frustrat)/i, 0.6],
    [/\bfor the life of me\b|\b(up and down|round and round|in circles)\b/i, 0.8],
    [/\b(scroll|click|search|tap|wait|try)(ed|ing)? and \1(ed|ing)?\b/i, 0.8],
    [/\b(three|four|five|six|several|a few|many|multiple|ten) times\b|\bagain and again\b|\bover and over\b/i, 0.75],
    [/\b(on hold|in a queue|in the queue)\b/i, 0.8],
    [/\b(a pain|a hassle|a faff|a headache|a chore|a struggle)\b/i, 0.8],
    [/\b(tiny|fiddly|too small to)\b/i, 0.7],
    [/\byou have to\b[^.!?]*\bthen\b/i, 0.7],
  ],
  workaround: [
    [/\bwork(ed)? ?around\b/i, 0.95],
    [/\b(so|and|then) (i|we) (just |basically |usually |always )?(use|used|keep|kept|copy|copied|paste|export|exported|write|wrote|open|opened|email|emailed|take|took|build|built|call|called|print|printed|track|tracked)\b/i, 0.8],
    [/\b(spreadsheet|excel|google sheets?|sticky notes?|notepad|a text file|post-its?)\b/i, 0.75],
    [/\b(copy(ing)? and past(e|ing)|copy-past(e|ing)|manually|by hand|on paper|(take|took|taking) screenshots?)\b/i, 0.85],
    [/\b(ended up|end up|instead,? (i|we)|(i|we) (just )?(ask|asked) (a colleague|someone|my)|i have to open)\b/i, 0.7],
    [/\b(now (i|we) (always |just )?(save|check|keep|write|copy|make sure|double-check|export)|just in case|to be safe)\b/i, 0.8],
    [/\b(hack|trick i use|my own (script|system|template))\b/i, 0.8],
    [/\b(on|in|with|via|using) (another|a different|a separate|the other|a second) (site|app|tool|website|service|program|browser|tab)\b/i, 0.8],
    [/\b(one at a time|individually|one by one)\b/i, 0.8],
    [/\binstead\b|\b(pasted|pasting|typed|retyped) it\b|\binto (a|my|the) (notes?|text|doc|document|email)\b/i, 0.75],
  ],
  desired_outcome: [
    [/\b(i|we) (really |just |do )?wish\b/i, 0.9],
    [/\b(i|we)('d| would) (really |definitely )?(want|love|like|prefer)\b/i, 0.85],
    [/\b(i|we) (really |just )?(want|need) (it|them|the app|the product|a|an|some|more|one|something|to be able)\b/i, 0.85],
    [/\b(it|that) would (be (great|nice|amazing|helpful|perfect|useful)|help|make|save)\b/i, 0.7],
    [/\b(ideally|if only|what i (really )?(want|need)|it'?d be (great|nice|amazing|helpful)|i'?m looking for|magic wand)\b/i, 0.85],
    [/\b(should (just )?(let|be able|show|remember|tell|warn|have (a|an|the|some)))\b/i, 0.7],
    [/^(please,? )?(show|let|give|tell|remind|warn|send) me\b|,? please[.!]?$/i, 0.8],
  ],
  hiring_criteria: [
    [/\b(chose|picked|went with|signed up|switched to|started using|bought|decided on|adopted|stayed|stay with|stick with|stuck with|renewed)\b.*\b(because|since|for|as)\b/i, 0.9],
    [/\b(the (main |real |only )?reason (i|we) (chose|picked|use|signed up|went|bought|switched|stay|stayed))/i, 0.9],
    [/\b(what (sold|convinced|won) (me|us)|sold me|convinced me|deal[ -]?breaker|must-have|non-negotiable)\b/i, 0.9],
    [/\b(compared|evaluated|shortlist|trialed|trialled|tried (a few|several|other) (tools|apps|options))\b/i, 0.75],
    [/\b(recommended (it|this|them) to me|a friend recommended|someone recommended)\b/i, 0.8],
  ],
  firing_moment: [
    [/\b(cancel(l?ed)?|cancel(l)?ing) (my|our|the) (subscription|account|plan|trial)/i, 0.95],
    [/\b(stopped using|quit using|gave up on (it|the app|the product|you|them|the service)|uninstall(ed)?|deleted (the|my) account|churned|moved away from|switched away|left (you|them|the product))\b/i, 0.9],
    [/\b(move|moving|switch|switching|go|going|migrate|migrating) (over )?to (the other|another|a different|a competitor|their competitor|a rival)\b/i, 0.85],
    [/\b(never (use|using|going to use) (it|this) again|(thought|thinking|think) (seriously )?(about|of) (leaving|switching|cancel|moving)|about to (leave|cancel|switch)|(last|final) straw)\b/i, 0.9],
    [/\b(we('re| are)? (moving|switching|migrating) to)\b/i, 0.8],
  ],
  emotional_response: [
    [/\b(i|we) (absolutely |really |just )?(love|loved|hate|hated|adore)\b/i, 0.85],
    [/\b(so|really|super|very|incredibly|pretty) (frustrat|annoy|stress|anxious|nervous|worried|scared|relieved|happy|excited|angry|upset|embarrass|delighted)/i, 0.85],
    [/\b(i was|i felt|i feel|i'm|it made me|made me feel) (so |really |pretty |very |a bit |kind of )?(frustrated|annoyed|stressed|anxious|nervous|worried|scared|relieved|happy|excited|angry|upset|embarrassed|delighted|panicked|furious|thrilled|stupid|dumb)\b/i, 0.85],
    [/\b(annoying|annoyed|infuriating|maddening|irritating|frustrating|relieved|embarrass(ed|ing)|gutted|panic(ked)?|furious|worried|anxious|stressed|nervous|scared|upset|thrilled)\b/i, 0.8],
    [/\b(nightmare|awful|terrible|horrible|amazing|fantastic|wonderful|brilliant|ugh|argh|wow)\b/i, 0.65],
    [/!/, 0.35],
  ],
  no_issue_found: [
    [/\b(no (problems|issues|complaints)|no (problem|issue)s? (at all|with|there|really)|nothing (else |really |much )?(bothered|stood out|to complain|comes to mind|to add|I'?d change)|can'?t think of anything|not really,? no|it was (all )?fine|all good)\b/i, 0.85],
  ],
  smooth_completion: [
    [/\b(was|is|were|felt|seemed|it'?s) (really |super |pretty |very |quite )?(easy|straightforward|simple|intuitive|quick|seamless|smooth|painless|obvious)\b/i, 0.8],
    [/\b(just worked|worked (fine|great|perfectly|first time)|no trouble|without (any )?(trouble|problems?|issues?|help)|first try|in (a few|two|2|three|3) (clicks|minutes|seconds))\b/i, 0.85],
    [/\b(loads?|loaded|works?|worked|went|arrived|synced|ran) (fine|great|well|perfectly|smoothly|straight away|instantly|right away)\b/i, 0.8],
    [/\b(that|this) (part|bit|step) was (great|good|fine|easy|nice)\b/i, 0.8],
    [/\b(really |very |super )?(handy|convenient|a nice touch|a lifesaver|spot on|appreciated)\b/i, 0.75],
    [/\b(takes|took|in) (a few |just |only )?seconds\b|\b(is|was) (brilliant|great|perfect|fantastic) because\b|\bno surprises\b/i, 0.8],
    [/\b(wasn'?t|was not|isn'?t|not) (really |very |that |too )?(hard|difficult|confusing|complicated|bad)\b/i, 0.8],
    [/\b(easily|quickly|straight away|right away) (found|did|set|got|finished|managed)\b/i, 0.8],
  ],
  critical_error: [
    [/\b(error( message)?|crash(ed|es)?|froze|frozen|hung|broke|broken|bug|glitch|500|404|blank (screen|page)|spinner (forever|never))\b/i, 0.85],
    [/\b(lost (all |my |our )?(data|work|changes|progress|order)|didn'?t save|wasn'?t saved|got deleted|disappeared|charged (me )?twice|double charged|payment failed|failed to (load|save|send|upload|sync))\b/i, 0.95],
    [/\b(doesn'?t work|didn'?t work|stopped working|not working|won'?t (load|open|save)|cuts? off|truncat\w*|garbled|wrong (numbers|data|totals?))\b/i, 0.85],
    [/\b(timed out|time-?out|logged me out|kicked me out|greyed out|grayed out|disabled for no reason)\b/i, 0.8],
    [/\b(went|goes|turned|was just) (white|blank|black)\b|\b(service unavailable|something went wrong|not supported|not allowed|access denied)\b/i, 0.85],
    [/\b(upload|payment|sync|login|transfer|import|export|order|booking) (failed|fails|didn'?t go through)\b|\bkept (saying|showing) "?(error|failed)/i, 0.85],
    [/\b(vanished|wiped|erased|went missing|got lost)\b|\b(was|were|came back) (empty|gone|missing|blank)\b/i, 0.85],
    [/\b(charged|billed|sent|booked|emailed|created|submitted) (\w+ ){0,3}twice\b|\b(charged|billed) (me )?(for|the wrong)\b/i, 0.85],
    [/\b(into|in) (the )?(junk|spam)( folder)?\b|\bnever (got|received|arrived)\b|\bnone of the \w+ (went out|arrived|came through|were sent)\b/i, 0.85],
    [/\bstill (says|said|shows|showed|showing|saying)\b/i, 0.75],
  ],
  recovery_success: [
    [/\b(eventually|finally|in the end|after a (while|bit|few tries)|second try|third try)\b.*\b(found|figured|got|managed|worked|it worked|made it|fixed|sorted|showed)\b/i, 0.9],
    [/\b(figured (it )?out|managed to|got it (working|to work)|worked it out|sorted it out|found (it|the|a way)|worked out)\b/i, 0.75],
    [/\b(support|a colleague|someone|the docs?|google|youtube) (helped|showed|told)\b/i, 0.75],
    [/\b(refund(ed)?|credited|reimbursed|restored|put it right|came back (fine|okay|ok)|cancell?ed it)\b/i, 0.8],
    [/\b(walked|talked) me through\b|\bgot (in|through|it) in the end\b|\bsince then (it'?s|it has) been (fine|alright|okay|ok|good)\b/i, 0.85],
    [/\bin the end\b|\bonce (they|it|we|i) (were|was|had)\b[^.!?]*\b(right|fine|worked|sorted)\b/i, 0.75],
  ],
  decision_point: [
    [/\b(decided|decision|had to (choose|decide|pick)|choos(e|ing) between|weigh(ed|ing)|on the fence|torn between|whether (or not )?to|trade-?off)\b/i, 0.85],
    [/\b(considered|was deciding|debat(ed|ing)|couldn'?t decide|hesitat(e|ed))\b/i, 0.8],
  ],
};

const WHY_CHOOSE = /\b(why (do|did|would) you (use|book|choose|pick|buy|shop|go with|stay|sign up)|what made you (pick|choose|try|sign up|start|buy|go with)|why .* (at all|in the first place)|what (sold|convinced) you)\b/i;

type Intent = 'feeling' | 'why_choose' | 'wish' | 'what_next' | 'anything_else' | 'went_wrong' | 'alternatives' | 'how_did_it_go';

/** What kind of answer an interviewer's question invites: interviews are question-led. */
export function intentOf(question: string | null): Intent | null {
  if (!question) return null;
  const q = question.toLowerCase();
  if (/\b(feel|felt|feeling)\b/.test(q)) return 'feeling';
  if (WHY_CHOOSE.test(q) || /\bwhy (this|these|them|us)\b|\brather than\b|\band not (another|anyone else)\b/.test(q)) return 'why_choose';
  if (/\b(would you (change|like|want|add)|would make .* better|if you could|magic wand|like to see|what would good|wish)\b/.test(q)) return 'wish';
  if (/\b(what did you do|what happened next|what did you try|how did you (get around|fix|solve|handle|deal))\b/.test(q)) return 'what_next';
  if (/\b(gone (badly )?wrong|go wrong|went wrong|ever (broken|crashed|failed)|any (trouble|problems?|issues?)|trouble)\b/.test(q)) return 'went_wrong';
  if (/\b(anything else|any other|something else)\b/.test(q)) return 'anything_else';
  if (/\b(consider|considering|alternatives?|other options?)\b/.test(q)) return 'alternatives';
  if (/\bhow (was|did|is|does|do)\b/.test(q)) return 'how_did_it_go';
  return null;
}

const POSITIVE = /\b(easy|great|brilliant|quick|quickly|simple|love|loved|appreciated|handy|smooth|fine|perfect|nice|helpful|good|fast|seconds|worked)\b/i;
const NEGATIVE = /\b(worst|gone|nothing|didn'?t|doesn'?t|couldn'?t|can'?t|wrong|reject\w*|error|slow|confus\w*|hard|annoy\w*|stuck|broke\w*|fail\w*|missing|problem|trouble|instead|had to)\b/i;
const DECLINE = /^(no|nope|nothing|not really|that'?s (everything|all|it)|none)\b/i;

/** A signal an answer's position implies, for the first sentences of an answer. */
function fromIntent(intent: Intent | null, s: string, k: number): { type: SignalType; score: number } | null {
  if (!intent) return null;
  const pos = POSITIVE.test(s);
  const neg = NEGATIVE.test(s);
  if (intent === 'anything_else' || intent === 'went_wrong') {
    if (DECLINE.test(s)) return { type: 'no_issue_found', score: 0.85 };
    if (intent === 'went_wrong' && k === 0 && neg) return { type: 'critical_error', score: 0.7 };
    return null;
  }
  if (k > 1) return null;
  switch (intent) {
    case 'feeling':
      return k === 0 ? { type: 'emotional_response', score: 0.75 } : null;
    case 'why_choose':
      return /\b(because|since|mostly|mainly|the|their|our|its|it'?s)\b/i.test(s) ? { type: 'hiring_criteria', score: 0.85 } : null;
    case 'wish':
      return k === 0 && !DECLINE.test(s) ? { type: 'desired_outcome', score: 0.8 } : null;
    case 'what_next':
      if (k !== 0) return null;
      return /\b(in the end|eventually|finally|worked( out)?|managed|fixed|sorted)\b/i.test(s) ? { type: 'recovery_success', score: 0.8 } : { type: 'workaround', score: 0.75 };
    case 'alternatives':
      return k === 0 && !DECLINE.test(s) ? { type: 'decision_point', score: 0.8 } : null;
    case 'how_did_it_go':
      if (pos && !neg) return { type: 'smooth_completion', score: 0.7 };
      if (neg && !pos) return { type: 'struggling_moment', score: 0.7 };
      return null;
  }
}

const NEGATED_FEELING = /\b(wasn'?t|was not|isn'?t|is not|not|never|wasn'?t ever)\s+(really\s+|that\s+|too\s+|very\s+|at all\s+)?(worried|scared|annoyed|frustrated|stressed|upset|nervous|anxious|angry|bothered|fussed)\b/i;
/** Conditionals about what would happen, not what did. */
const HYPOTHETICAL = /\b(if|suppose|supposing|imagine|in case)\b[^.!?]*\b(would|'d|could|might)\b|\b(would|'d|could|might)\b[^.!?]*\bif\b/i;
/** Types that say something happened to the participant. */
const HAPPENED = new Set<SignalType>(['struggling_moment', 'critical_error', 'smooth_completion', 'recovery_success', 'workaround']);
/** Another person's words or opinion, reported. */
const REPORTED = /^(?:\w+\s+){0,3}?(my|our|the|a) (manager|boss|colleague|coworker|co-worker|team|wife|husband|partner|friend|customer|client|accountant|mum|mom|dad|kids?|son|daughter|neighbou?r|sister|brother) (says|said|told me|tells me|thinks|thought|reckons|complains|complained|keeps saying)\b/i;
/** Other named people, or people in general, as the subject: "Mrs Patel said…", "Some people open it on two devices". */
const OTHERS = /^(?:\w+,?\s+){0,2}?(?:(?:Mr|Mrs|Ms|Dr)\.? )?[A-Z][a-z]+ (said|says|told me|tells me|thinks|reckons)\b|^(?:\w+,?\s+){0,2}?([Ss]ome|[Mm]ost|[Aa] lot of|[Oo]ther|[Mm]any) (people|users|customers|of them)\b/;

const INTENSIFIERS = /\b(really|so|very|super|extremely|incredibly|totally|completely|absolutely|literally|always|never|every single|hours?)\b/gi;
const STRONG_EMOTION = /\b(hate|love|furious|panic|nightmare|terrible|awful|amazing|desperate|scared)\b/i;
const HEDGE = /\b(maybe|i guess|probably|might|not sure|i suppose|kind of|sort of|perhaps)\b/i;
const DIRECT = /\b(i|we)\s+(\w+ed|couldn'?t|could not|tried|had to|went|got|was|were|spent|lost|found|clicked|used|switched|gave up|ended up|kept|chose|picked|bought|paid)\b/i;
const NEGATED_DIFFICULTY = /\b(wasn'?t|was not|isn'?t|is not|not|never|no)\s+(really\s+|very\s+|that\s+|too\s+|at all\s+)?(hard|difficult|confusing|complicated|a problem|an issue|frustrating)\b/i;

const LABEL: Record<SignalType, string> = {
  struggling_moment: 'Struggle',
  desired_outcome: 'Wants',
  workaround: 'Workaround',
  hiring_criteria: 'Why they chose it',
  firing_moment: 'Reason to leave',
  emotional_response: 'Emotion',
  no_issue_found: 'No issue',
  smooth_completion: 'Went smoothly',
  critical_error: 'Critical error',
  recovery_success: 'Recovered',
  decision_point: 'Decision',
};

const CLAIM: Record<SignalType, string> = {
  struggling_moment: 'The participant struggled',
  desired_outcome: 'The participant wants an outcome the product does not give yet',
  workaround: 'The participant works around the product',
  hiring_criteria: 'The participant names a reason for choosing the product',
  firing_moment: 'The participant describes a reason to stop using the product',
  emotional_response: 'The participant reacts emotionally',
  no_issue_found: 'The participant reports no problem',
  smooth_completion: 'The participant completed this without trouble',
  critical_error: 'The participant hit an error that blocked them',
  recovery_success: 'The participant recovered from a problem',
  decision_point: 'The participant faced a decision',
};

/** When no clause makes a headline: the kind of moment and what it was about ("Struggle: the export button"). */
function labelled(type: SignalType, text: string): string {
  const topic = nounPhrases(text)[0];
  const headline = topic ? `${LABEL[type]}: ${topic}` : LABEL[type];
  return headline.length <= HEADLINE_MAX ? headline : LABEL[type];
}

const OUTCOME: Partial<Record<SignalType, string>> = {
  struggling_moment: 'delayed or blocked',
  critical_error: 'blocked',
  smooth_completion: 'completed',
  recovery_success: 'completed after recovering',
  firing_moment: 'at risk of churn',
  workaround: 'completed outside the product',
};

function score(type: SignalType, s: string): number {
  let best = 0;
  let hits = 0;
  for (const [re, w] of P[type]) {
    if (re.test(s)) {
      hits++;
      best = Math.max(best, w);
    }
  }
  return best ? Math.min(1, best + 0.05 * (hits - 1)) : 0;
}

function surfaceOf(s: string): TargetSurface {
  if (/\b(you (already|just) asked|(this|that|your) (last )?question|you keep asking|you interrupted|you('re| are) (talking|going) too fast|repeat the question)\b/i.test(s)) return 'interviewer_conductor_behavior';
  if (/\b(this (interview|call|survey|widget|recording|chat)|the (widget|recording|microphone|mic)|can you hear me|(audio|sound) (cut|dropped|keeps)|your (widget|recorder))\b/i.test(s)) return 'service_widget_interview';
  return 'product_under_test';
}

function gradeOf(s: string): EvidenceGrade {
  if (HEDGE.test(s)) return 'weak';
  return DIRECT.test(s) ? 'direct' : 'strong_circumstantial';
}

function intensityOf(s: string): number {
  const intensifiers = (s.match(INTENSIFIERS) ?? []).length;
  return Math.min(1, Number((0.3 + 0.15 * intensifiers + (s.includes('!') ? 0.2 : 0) + (STRONG_EMOTION.test(s) ? 0.25 : 0)).toFixed(2)));
}

const mmss = (ms: number | null) => (ms == null ? null : clock(ms));

/** Types a sentence carries, strongest first: at most a primary type and a co-occurring emotion. */
export function classify(s: string, question: string | null = null, k = 0): Array<{ type: SignalType; score: number }> {
  const scored = (Object.keys(P) as SignalType[])
    .map((type) => ({ type, score: score(type, s) }))
    .filter((x) => x.score >= 0.6);
  // The question an answer responds to says what kind of evidence its first sentences are.
  const implied = fromIntent(intentOf(question), s, k);
  if (implied) {
    const same = scored.find((x) => x.type === implied.type);
    if (same) same.score = Math.min(1, Math.max(same.score, implied.score) + 0.05);
    else if (!scored.some((x) => x.score > implied.score)) scored.push(implied);
  }
  if (NEGATED_DIFFICULTY.test(s)) {
    for (const x of scored) if (x.type === 'struggling_moment') x.score -= 0.5;
  }
  // Negated feelings ("I wasn't worried at all") are not emotional responses.
  if (NEGATED_FEELING.test(s)) {
    for (const x of scored) if (x.type === 'emotional_response') x.score -= 0.5;
  }
  // What did not happen: a hypothetical ("if it crashed I would…") tells of no struggle, error or success.
  if (HYPOTHETICAL.test(s)) {
    for (const x of scored) if (HAPPENED.has(x.type)) x.score -= 0.5;
  }
  // Someone else's words ("my manager says the report is useless") are not the participant's experience.
  if (REPORTED.test(s) || OTHERS.test(s)) {
    for (const x of scored) x.score -= 0.5;
  }
  // A question the participant asks needs a strong cue to be evidence.
  if (/\?\s*$/.test(s)) {
    for (const x of scored) if (x.type !== 'desired_outcome') x.score -= 0.2;
  }
  const ranked = scored.filter((x) => x.score >= 0.6).sort((a, b) => b.score - a.score);
  if (!ranked.length) return [];
  // A sentence can carry a second signal (a crash that forced a workaround, a struggle told with feeling).
  const [primary, second] = ranked;
  return second && second.score >= 0.8 ? [primary, second] : [primary];
}

export class LocalExtractor implements Extractor {
  readonly name = 'local';

  async extract(turns: Turn[]): Promise<ExtractedEvidence[]> {
    const out: ExtractedEvidence[] = [];
    let lastQuestion: string | null = null;
    for (const turn of turns) {
      if (turn.role === 'interviewer') {
        // A turn without a question (thanks, a remark) closes the previous question.
        const qs = sentences(turn.text).filter((x) => x.text.endsWith('?'));
        lastQuestion = qs.length ? qs[qs.length - 1].text : null;
        continue;
      }
      const goal = /\b(?:trying|tried|wanted|want|needed|need|had) to ([^,.;!?]{3,80})/i.exec(turn.text)?.[1]?.trim() ?? null;
      for (const [k, sentence] of sentences(turn.text).entries()) {
        const wordCount = sentence.text.split(/\s+/).length;
        if (wordCount < 2) continue;
        const types = classify(sentence.text, lastQuestion, k);
        // One parse per sentence, however many types it carries.
        const told = types.length ? describe(sentence.text) : null;
        for (const { type, score: sc } of wordCount < 3 ? types.filter((t) => t.score >= 0.8) : types) {
          const confidence = Number(Math.min(0.95, 0.45 + sc * 0.5).toFixed(2));
          const at = mmss(turn.start_ms);
          out.push({
            signal_type: type,
            target_surface: surfaceOf(sentence.text),
            quote: sentence.text,
            segment_id: turn.segment_id,
            confidence,
            intensity: intensityOf(sentence.text),
            evidence_grade: gradeOf(sentence.text),
            headline: told?.headline ?? labelled(type, sentence.text),
            claim: told?.claim ?? `${CLAIM[type]}.`,
            reconstruction: lastQuestion ? `Asked "${lastQuestion}", the participant said: "${sentence.text}"` : `The participant said: "${sentence.text}"`,
            observed_facts: [`The participant said: "${sentence.text}"`, ...(lastQuestion ? [`In answer to: "${lastQuestion}"`] : []), ...(at ? [`At ${at} in the interview`] : [])],
            user_goal: goal,
            outcome: OUTCOME[type] ?? null,
          });
        }
      }
    }
    return mergeRetold(out);
  }
}

const STOP = new Set(['that', 'this', 'with', 'have', 'just', 'really', 'then', 'they', 'them', 'there', 'when', 'what', 'like', 'because', 'were', 'was', 'from', 'into', 'would', 'could', 'about', 'again', 'some', 'even', 'still', 'very', 'know', 'mean', 'yeah', 'well', 'thing', 'things', 'it\'s', 'i\'m', 'didn\'t', 'don\'t']);
const contentWords = (text: string) => new Set(text.toLowerCase().match(/[a-z']{4,}/g)?.filter((w) => !STOP.has(w)) ?? []);

/**
 * One moment told twice in an interview is one card: proposals of one type whose content
 * words mostly coincide are merged, keeping the stronger quote (higher confidence, then longer).
 */
function mergeRetold(found: ExtractedEvidence[]): ExtractedEvidence[] {
  const kept: Array<{ e: ExtractedEvidence; words: Set<string> }> = [];
  for (const e of found) {
    const words = contentWords(e.quote);
    const twin = kept.find((k) => {
      if (k.e.signal_type !== e.signal_type || words.size < 3 || k.words.size < 3) return false;
      const shared = [...words].filter((w) => k.words.has(w)).length;
      return shared / Math.min(words.size, k.words.size) >= 0.6;
    });
    if (!twin) kept.push({ e, words });
    else if (e.confidence > twin.e.confidence || (e.confidence === twin.e.confidence && e.quote.length > twin.e.quote.length)) Object.assign(twin, { e, words });
  }
  return kept.map((k) => k.e);
}
