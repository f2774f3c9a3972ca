import type { SignalType } from './types.ts';

/**
 * Word cues for the offline extractor. They are not the classifier: each one is a feature the
 * sentence model (sentence-model.ts) weighs, learned from labelled transcripts, beside the
 * parse's lemmas, negation and the question the sentence answers.
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

const NEGATED_DIFFICULTY = /\b(wasn'?t|was not|isn'?t|is not|not|never|no)\s+(really\s+|very\s+|that\s+|too\s+|at all\s+)?(hard|difficult|confusing|complicated|a problem|an issue|frustrating)\b/i;
const NEGATED_FEELING = /\b(wasn'?t|was not|isn'?t|is not|not|never|wasn'?t ever)\s+(really\s+|that\s+|too\s+|very\s+|at all\s+)?(worried|scared|annoyed|frustrated|stressed|upset|nervous|anxious|angry|bothered|fussed)\b/i;
/** Conditionals about what would happen, not what did. */
const HYPOTHETICAL = /\b(if|suppose|supposing|imagine|in case)\b[^.!?]*\b(would|'d|could|might)\b|\b(would|'d|could|might)\b[^.!?]*\bif\b/i;
/** Another person's words or opinion, reported. */
const REPORTED = /^(?:\w+\s+){0,3}?(my|our|the|a) (manager|boss|colleague|coworker|co-worker|team|wife|husband|partner|friend|customer|client|accountant|mum|mom|dad|kids?|son|daughter|neighbou?r|sister|brother) (says|said|told me|tells me|thinks|thought|reckons|complains|complained|keeps saying)\b/i;
/** Other named people, or people in general, as the subject: "Mrs Patel said…", "Some people open it on two devices". */
const OTHERS = /^(?:\w+,?\s+){0,2}?(?:(?:Mr|Mrs|Ms|Dr)\.? )?[A-Z][a-z]+ (said|says|told me|tells me|thinks|reckons)\b|^(?:\w+,?\s+){0,2}?([Ss]ome|[Mm]ost|[Aa] lot of|[Oo]ther|[Mm]any) (people|users|customers|of them)\b/;

/** Strength of each type's word cues in a sentence (0 when none fire). */
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

/** The cues a sentence carries, as feature names ("cue:workaround", "hypothetical", …). */
export function lexiconCues(s: string): string[] {
  const cues: string[] = [];
  for (const type of Object.keys(P) as SignalType[]) {
    const sc = score(type, s);
    if (sc >= 0.6) cues.push(`cue:${type}`, sc >= 0.85 ? `cue:${type}:strong` : `cue:${type}:weak`);
  }
  const flags: Array<[string, RegExp]> = [
    ['negated_feeling', NEGATED_FEELING],
    ['negated_difficulty', NEGATED_DIFFICULTY],
    ['hypothetical', HYPOTHETICAL],
    ['reported', REPORTED],
    ['others', OTHERS],
    ['decline', DECLINE],
    ['positive', POSITIVE],
    ['negative', NEGATIVE],
  ];
  for (const [name, re] of flags) if (re.test(s)) cues.push(name);
  return cues;
}
