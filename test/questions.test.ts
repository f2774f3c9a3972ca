import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { branchApplies, guideReply, interviewerDirected, questionPlan, readsAsNote, titleForParticipant } from '../tools/conductor/questions.ts';
import { withEarlierQuestions } from '../tools/conductor/script.ts';
import { goalIn, goalOf, grounded } from '../tools/conductor/goal.ts';
import { CHECK_IN, TOUCHED, addsNothing, followUp, notesHeard, ruleInterviewer, NEW_TALK, type Interviewer, type TalkState, type Turn } from '../tools/conductor/interviewer.ts';
import { lineOrNone, nextTurn } from '../tools/conductor/fallback.ts';
import type { Logger } from '../core/logger.ts';
import { ALLOWED, ASK_SUPPORT, CALL_SUPPORT, WHAT_DO_YOU_THINK, CLARIFIED, ON_THE_PAGE, STILL_HERE, ALREADY_SAID, ANONYMITY, ANONYMITY_NAMED, ANYTHING_MORE, ACKNOWLEDGEMENT, WHY_IT_HELPS, ONLY_THE_TEAM, AS_YOU_WOULD, givesUp, HERE_AND_NOW, CLEAR_ENGLISH, EITHER_WAY, ENGLISH_PLEASE, FAIR_ENOUGH, FREE_TO_GO, GAVE_UP, NOT_ASSUMING, NOT_RECORDED, THANK_YOU_FOR_TELLING, ON_YOUR_OWN, RECORDED, SKIPPED, YOUR_CALL, endsTask, STOPPING, WHO_READS, WHO_WE_ARE, WHY_WE_ASK, YOUR_READING, acknowledgement, heardAs, plain, whileWorking } from '../tools/conductor/heard.ts';
import { echoesInstructions } from '../tools/conductor/echo.ts';
import { spokenText } from '../tools/conductor/speak.ts';
import type { Segment } from '../tools/conductor/script.ts';
import { starterScript } from '../tools/studies/starter.ts';
import { validScript } from './helpers/fixtures.ts';
import { directedText, conductorScripts } from './helpers/participant-text.ts';

const talk = (instruction: string, title = 'Your experience') => questionPlan({ mode: 'talk', title, instruction }).questions;
const observe = (instruction: string, title = 'Try it') => questionPlan({ mode: 'observe', title, instruction }).questions;

/** Written together with the rules. */
const cases: Array<[string, string[]]> = [
  ['Ask what the participant was trying to get done today and what they used before.', ['What were you trying to get done today, and what did you use before?']],
  ['Did the participant find the export button?', ['Did you find the export button?']],
  ['Ask for a concrete recent example.', ['Could you share a concrete recent example?']],
  ['Ask about the moments that felt slow or confusing, what they expected instead, and how they worked around it.', ['Could you tell me about the moments that felt slow or confusing?', 'What did you expect instead, and how did you work around it?']],
  ['Ask what would have to change for them to recommend the product to a colleague.', ['What would have to change for you to recommend the product to a colleague?']],
  ['Ask about the last time they exported a report. What got in the way?', ['Could you tell me about the last time you exported a report?', 'What got in the way?']],
  ["Ask why they didn't finish and whether they're going to come back.", ["Why didn't you finish, and are you going to come back?"]],
  ['Ask how the participant usually exports reports and what tools their team uses.', ['How do you usually export reports, and what tools does your team use?']],
  ['What did the participant expect?', ['What did you expect?']],
  ['Ask them to walk you through setup.', ['Could you walk me through setup?']],
  ['Find out which tools they tried first.', ['Which tools did you try first?']],
  ['Ask how long it took them to set up the account.', ['How long did it take you to set up the account?']],
  ['Ask: "What did you do next?" Do not lead.', ['What did you do next?']],
  ['Ask: What did you do next?', ['What did you do next?']],
  ['Explore their onboarding experience.', ['Could you tell me about your onboarding experience?']],
  ['Tell me about the last time you paid an invoice.', ['Could you tell me about the last time you paid an invoice?']],
  ['We want to know how they share reports with their manager.', ['How do you share reports with your manager?']],
  ['Have them describe their weekly planning routine.', ['Could you describe your weekly planning routine?']],
  ['Ask whether the participant has used a competitor.', ['Have you used a competitor?']],
  ['Ask what the participant expects to happen when they click Export.', ['What do you expect to happen when you click Export?']],
  ['Ask about the last time they signed up.', ['Could you tell me about the last time you signed up?']],
  ['Ask about the last time they exported a report.', ['Could you tell me about the last time you exported a report?']],
  ['What have you been trying to get done with the product lately? What got in your way?', ['What have you been trying to get done with the product lately?', 'What got in your way?']],
];

/**
 * Written after the rules were done, without changing the expectations to fit: the cases the
 * rules got wrong at first were fixed in the rules (see the commit that added this list).
 */
const writtenAfterRules: Array<[string, string[]]> = [
  ['Ask how they currently keep track of unpaid invoices.', ['How do you currently keep track of unpaid invoices?']],
  ['Ask why the participant stopped using the mobile app.', ['Why did you stop using the mobile app?']],
  ['Ask what their manager asks them for each month.', ['What does your manager ask you for each month?']],
  ['Find out when they last changed their password.', ['When did you last change your password?']],
  ['Ask where they look for help when something breaks.', ['Where do you look for help when something breaks?']],
  ['Ask who else on their team uses the dashboard.', ['Who else on your team uses the dashboard?']],
  ['Ask them to describe the last report they built.', ['Could you describe the last report you built?']],
  ['Ask the participant about their first week with the product.', ['Could you tell me about your first week with the product?']],
  ['Ask how often they export data, and why.', ['How often do you export data, and why?']],
  ['Then ask what they did next.', ['What did you do next?']],
  ['Ask whether they were able to finish the setup on their own.', ['Were you able to finish the setup on your own?']],
  ['Ask if they have tried the new editor.', ['Have you tried the new editor?']],
  ['Ask what the user was hoping the search would show.', ['What were you hoping the search would show?']],
  ['Ask for an example of a time the sync failed them.', ['Could you share an example of a time the sync failed you?']],
  ['Have the participant explain how they plan their week.', ['Could you explain how you plan your week?']],
  ['Ask which part of the checkout took the longest.', ['Which part of the checkout took the longest?']],
  ['Understand why they chose the annual plan.', ['Why did you choose the annual plan?']],
  ['Ask "How did you first hear about us?" and then move on.', ['How did you first hear about us?']],
  ['Describe a typical working day.', ['Could you describe a typical working day?']],
  ['Learn what the customer expects from support.', ['What do you expect from support?']],
];

/** Second round: written together with the rules for "dig into", "probe on", "walk me through" and a clause-bound main "do". */
const secondRound: Array<[string, string[]]> = [
  ['Probe on pricing concerns.', ['Could you tell me about pricing concerns?']],
  ['Dig into what happened when the payment failed.', ['What happened when the payment failed?']],
  ['Have them walk through setting up a new project.', ['Could you walk me through setting up a new project?']],
  ['Look into how they onboard new hires.', ['How do you onboard new hires?']],
  ['Probe around what the participant does when an export fails.', ['What do you do when an export fails?']],
  ['Probe into why they cancelled.', ['Why did you cancel?']],
];

/** Written after the second round of rules, and passing as first run. */
const writtenAfterSecondRound: Array<[string, string[]]> = [
  ['Dig into how the participant decides which invoices to pay first.', ['How do you decide which invoices to pay first?']],
  ['Probe on their reasons for switching banks.', ['Could you tell me about your reasons for switching banks?']],
  ['Ask them to walk through how they reconcile accounts.', ['Could you walk me through how you reconcile accounts?']],
  ['Look into what the user does when a sync conflict appears.', ['What do you do when a sync conflict appears?']],
  ['Explore how they share drafts with clients.', ['How do you share drafts with clients?']],
  ['Discuss the last time their export failed.', ['Could you tell me about the last time your export failed?']],
  // "what, if anything, …" is a parenthesis inside one question, not a second one.
  ['Ask what, if anything, took longer than they expected.', ['What, if anything, took longer than you expected?']],
  ['Ask what, if anything, they would change first.', ['What, if anything, would you change first?']],
  ['Ask which part, if any, took longer than they expected.', ['Which part, if any, took longer than you expected?']],
];

describe('questions from instructions', () => {
  it(`has at least 40 cases, a third of them written after the rules (${cases.length} + ${writtenAfterRules.length})`, () => {
    expect(cases.length + writtenAfterRules.length).toBeGreaterThanOrEqual(40);
    expect(writtenAfterRules.length * 3).toBeGreaterThanOrEqual(cases.length + writtenAfterRules.length);
    expect(writtenAfterSecondRound.length).toBeGreaterThanOrEqual(secondRound.length);
  });

  for (const [instruction, expected] of [...cases, ...writtenAfterRules, ...secondRound, ...writtenAfterSecondRound]) {
    it(`turns "${instruction}" into questions for the participant`, () => {
      const questions = talk(instruction);
      expect(questions).toEqual(expected);
      for (const q of questions) expect(directedText(q)).toBeNull();
    });
  }

  it('gives observe segments a second-person task prompt, and none of the coaching', () => {
    expect(observe('Ask the participant to do the task they described, thinking aloud. Do not help unless they are stuck for a minute.')).toEqual([
      'Could you show me how you would do the task you described, thinking aloud as you go?',
    ]);
    expect(observe('Watch them pay an invoice.')).toEqual(['Could you show me how you would pay an invoice, thinking aloud as you go?']);
    expect(observe('Observe the participant paying an invoice')).toEqual(['Could you show me how you would pay an invoice, thinking aloud as you go?']);
    expect(observe("Export last month's report as you normally would.")).toEqual(["Could you show me how you would export last month's report, thinking aloud as you go?"]);
    expect(observe('Have the participant try to create a new project.')).toEqual(['Could you show me how you would create a new project, thinking aloud as you go?']);
    expect(observe('Ask them to show you how they share a dashboard.')).toEqual(['Could you show me how you share a dashboard, thinking aloud as you go?']);
  });

  it('asks a generic second-person question about the title for empty, coaching-only, very long or non-English instructions', () => {
    const odd = [
      '',
      '   ',
      'Do not help. Note hesitations. Stay neutral and keep it short.',
      'Pregunte al participante qué intentaba hacer hoy y qué usaba antes.',
      'Note hesitations. '.repeat(120).slice(0, 2000),
      'x'.repeat(2000),
    ];
    for (const instruction of odd) {
      const plan = questionPlan({ mode: 'talk', title: 'Paying invoices', instruction });
      expect(plan).toMatchObject({ questions: ['Could you tell me about paying invoices?'], generic: true, branches: [], notes: [] });
      const seen = questionPlan({ mode: 'observe', title: 'Paying invoices', instruction });
      expect(seen.generic).toBe(true);
      expect(seen.questions[0]).toMatch(/^For this part, "Paying invoices", could you .* thinking aloud as you go\?$/);
    }
    // A long instruction still yields its questions, each short enough to say.
    const long = `${'Note how they navigate. '.repeat(60)}Ask what they expected the export to contain.`;
    expect(long.length).toBeGreaterThan(1400);
    expect(talk(long)).toEqual(['What did you expect the export to contain?']);
    expect(talk('', 'What would make it worth it')).toEqual(['What would make it worth it?']);
  });
});

/** From the question tuning set (test/fixtures/questions/tuning.json): how discussion guides are really written. */
describe("instructions as discussion guides write them: shorthand, lists, asides, the tagger's slips", () => {
  const talking: Array<[string, string[]]> = [
    ['Probe esp. on whether they checked other listings.', ['Did you check other listings?']],
    ['What happened next? Let them tell the story, don\'t interrupt.', ['What happened next?']],
    ['Understand whether price or class schedule made them switch from their old gym. Serves g-3', ['Did price or class schedule make you switch from your old gym?']],
    ['Without pointing at the pack, ask how they check whether their coverage changed at renewal.', ['How do you check whether your coverage changed at renewal?']],
    ["Last bike bought — where, how much, how they knew it wasn't stolen.", ["Could you tell me about your last bike bought: where, how much and how you knew it wasn't stolen?"]],
    ['Ask how much they trust fuzzy matches below 85% and what they do with them.', ['How much do you trust fuzzy matches below 85%, and what do you do with those?']],
    ['Find out when and where they actually log their hours.', ['When and where do you actually log your hours?']],
    [
      'Get them to describe the last time they had a question for the board or mgmt company re: their account & how it got resolved (or didnt).',
      ['Could you describe the last time you had a question for the board or management company about your account and how it got resolved?'],
    ],
    [
      'Probe on the last time they got stuck on a waitlist — what happened, did they get in, how did they find out?',
      ['Could you tell me about the last time you got stuck on a waitlist: what happened, did you get in and how did you find out?'],
    ],
    ['Explore the last special assessment: how they heard about it, whether they understood what it was for.', ['Could you tell me about the last special assessment: how you heard about it and whether you understood what it was for?']],
    ['1) Who usually enters the insurance info? 2) Which sites/brokers do they compare, and why.', ['Who usually enters the insurance info?', 'Which sites/brokers do you compare, and why?']],
    // From an eighth walkthrough (three studies written as guides are): aims, what was heard, steps, examples.
    [
      'Context: participants are payroll admins. Many came from spreadsheets (ADP, Gusto). We want to understand their role before diving in.\n\nFind out what their role is, how many people they pay, and how often they run payroll.',
      ['What is your role, how many people do you pay, and how often do you run payroll?'],
    ],
    ['We want to understand their role before diving in.', ['Could you tell me about your role before diving in?']],
    ['Ask them to rate 1–5 how easy booking was, then ask why they gave that score.', ['Could you rate 1–5 how easy booking was?', 'Why did you give that score?']],
    ['Ask about their insurer, i.e. who pays for what, e.g. check-ups vs. fillings, etc.', ['Could you tell me about your insurer, that is who pays for what?']],
    ['Payment at the desk → did they get a receipt? → where did it go?', ['Did you get a receipt?', 'Where did it go?']],
    ["We've heard from other patients that reminders come too late. Ask if that matches their experience.", ["We've heard that reminders come too late. Does that match your experience?"]],
    [
      '1. Ask how they book today. 2. Find out who books for the family. 3. Explore whether late-cancellation fees have ever put them off booking.',
      ['How do you book today?', 'Who books for the family?', 'Have late-cancellation fees ever put you off booking?'],
    ],
    ["Ask whether they've had a payroll error in the last year. [If they've never had one, ask about off-cycle payments instead.]", ['Have you had a payroll error in the last year?']],
    ['Ask how they decide what to read next — recs from friends, the librarian?', ['How do you decide what to read next — recommendations from friends, the librarian?']],
    ['Ask how they book appts today. If they mention the receptionist, ask how that felt.', ['How do you book appointments today?']],
    // From a ninth walkthrough: a paragraph break, a hyphenated topic, contractions, "if not, why not".
    ['Context: most customers never open the Rates screen.\n\nUnderstand whether the participant knows which tariff they\'re on.', ["Do you know which tariff you're on?"]],
    ['Understand whether the participant talks to an academic advisor before registering, and if not, why not.', ['Do you talk to an academic advisor before registering, and if not, why not?']],
    ['Last no-show — what happened, what they did with the table.', ['Could you tell me about your last no-show: what happened and what you did with the table?']],
    ["Ask them what year and programme they're in.", ['What year and programme are you in?']],
    ["1. Ask what, if anything, they'd change about the app.", ['What, if anything, would you change about the app?']],
    ["Find out how long they've worked there.", ['How long have you worked there?']],
    ["We're especially interested in: who else touches the book, paper vs screen.", ['Could you tell me about your experience?']],
    // From a tenth walkthrough: labels, quoted requests, "If yes —", notes to listen for.
    [
      'Ask: "Tell me about the last time you claimed for a vet bill."\nProbe: what was the condition, did they pay upfront or did the vet claim direct?\nFollow-up: how long did the payout take, and how did that feel?',
      ['Could you tell me about the last time you claimed for a vet bill?', 'What was the condition, did you pay upfront or did the vet claim direct?', 'How long did the payout take, and how did that feel?'],
    ],
    ['Follow-up: Any surprise charges? If yes — how did they find out?\nNB: don\'t quote prices ourselves.', ['Any surprise charges?']],
    ['Ask: "Walk me through the last time you closed out a month." Let them talk. Listen for: duplicates, missing transactions.', ['Could you walk me through the last time you closed out a month?']],
    ['Would you let it categorize transactions without review? Why / why not?', ['Would you let it categorize transactions without review?', 'Why or why not?']],
    // A plural at the start is someone else: the participant's own customers.
    ['Customers finding out — worries? Any pushback from debtors?', ['Customers finding out — worries?', 'Any pushback from debtors?']],
  ];
  for (const [instruction, expected] of talking) {
    it(`asks "${expected.join(' ')}"`, () => {
      const questions = talk(instruction);
      expect(questions).toEqual(expected);
      for (const q of questions) expect(directedText(q)).toBeNull();
    });
  }

  it('hands over the task however the guide phrases it, without its brackets, labels or asides', () => {
    const asked = (task: string) => [`Could you show me how you would ${task}, thinking aloud as you go?`];
    expect(observe("Have them book a spin class for next Tuesday at 6pm while thinking aloud. Don't help unless stuck for a minute.")).toEqual(asked('book a spin class for next Tuesday at 6pm'));
    expect(observe('Hand them the test phone. Have them open locker 14 using the code in the SMS. Observe where they look first.')).toEqual(asked('open locker 14 using the code in the SMS'));
    expect(observe("Task: download last year's annual statement for taxes. Observe only.")).toEqual(asked("download last year's annual statement for taxes"));
    expect(observe("Have them go through the cart and set 'no substitution' for the baby formula. Think aloud.")).toEqual(asked("go through the cart and set 'no substitution' for the baby formula"));
    expect(observe("Have them enter last week's hours (use the card: Mon–Thu 8h, Fri 4h) and submit for approval.")).toEqual(asked("enter last week's hours and submit for approval"));
    expect(observe("Watch the participant correct a rejected timesheet — the manager's comment says Tuesday is missing a project code.")).toEqual(asked('correct a rejected timesheet'));
    expect(observe('Have them find a medium-frame gravel bike under $800 w/ disc brakes.')).toEqual(asked('find a medium-frame gravel bike under $800 with disc brakes'));
    expect(observe('Have them open the same book on their second device (if they have one) and check whether their page synced. Do not explain sync.')).toEqual(
      asked('open the same book on your second device, if you have one, and check whether your page synced'),
    );
    expect(observe("Ask the participant to find the clinic's opening hours and add them to their calendar. Time on task.")).toEqual(asked("find the clinic's opening hours and add those to your calendar"));
    expect(observe('Observe: they cancel the appointment they just booked. Note if they find the fee warning.')).toEqual(asked('cancel the appointment you just booked'));
    expect(observe("Task: schedule the dishwasher to run in tonight's cheapest window using Shift. Watch for confusion at the 'flex window' step. Stop after 3 min.")).toEqual(
      asked("schedule the dishwasher to run in tonight's cheapest window using Shift"),
    );
    expect(observe('Ask them to build a timetable with 4 courses and no clashes, incl. one lab. Observe silently.')).toEqual(asked('build a timetable with 4 courses and no clashes, including one lab'));
    // What the participant needs for the task stays in its brackets; other brackets are the interviewer's.
    expect(observe("Have them import the March statement (Downloads/chase_march.csv) into LedgerLift. Don't submit.")).toEqual(asked('import the March statement (Downloads/chase_march.csv) into LedgerLift'));
    expect(observe("Have them send the guest the 'table ready' text (name: Priya).")).toEqual(asked("send the guest the 'table ready' text (name: Priya)"));
    expect(observe('Have them book a spin class (they usually go on Tuesdays) for next week.')).toEqual(asked('book a spin class for next week'));
  });
});

describe('follow-ups', () => {
  const segment: Segment = { id: 's', mode: 'talk', title: 'Paying', instruction: 'Ask how they paid their last invoice. Ask what got in the way.' };
  const run = async (answers: string[]) => {
    const turns: Turn[] = [];
    let state: TalkState = NEW_TALK;
    let first = await ruleInterviewer.next({ segment, turns, state: state });
    turns.push({ role: 'conductor', text: first.say! });
    state = first.state;
    const said: Array<string | null> = [];
    for (const a of answers) {
      turns.push({ role: 'participant', text: a });
      first = await ruleInterviewer.next({ segment, turns, state: state });
      state = first.state;
      said.push(first.say);
      if (first.say) turns.push({ role: 'conductor', text: first.say });
    }
    return said;
  };

  it('names the thing that happened, not where it happened', () => {
    expect(followUp('Sat in my seat and the app froze.', 0, 'How did it go?')).toBe('You mentioned the app. What happened next?');
    expect(followUp('The card reader died in the rain.', 0, 'How did it go?')).toBe('You mentioned the card reader. What happened next?');
    expect(followUp('In the heat the screen went dark.', 0, 'How did it go?')).toBe('You mentioned the screen. What happened next?');
    // A setting is still named when it is all there is.
    expect(followUp('On the bus.', 0, 'Where do you usually book?')).toBe('Could you tell me more about the bus?');
  });

  it('names what the participant said, at most twice per question, worded differently, then moves on', async () => {
    const said = await run(['I clicked the confirm button.', 'Meh.', 'Fine.', 'It took a while but the bank transfer eventually went through after I retried it twice.']);
    expect(said[0]).toBe('You mentioned the confirm button. What happened next?');
    expect(said[1]).toBe('What comes to mind, even if it is something small?'); // a shrug gets room to think, not a request for an example
    expect(said[2]).toBe('What got in the way?'); // two follow-ups were enough
    expect(said[3]).toBeNull();
    expect(new Set(said.slice(0, 2)).size).toBe(2);
  });

  it('takes "I don\'t know" to a follow-up as the answer: a second follow-up would only press (walkthrough 25)', async () => {
    for (const dunno of ['Not sure.', 'idk', 'No idea.', "I don't know, sorry.", 'Honestly I dont remember', 'hard to say'])
      expect(await run(['I clicked the confirm button.', dunno]), dunno).toEqual(['You mentioned the confirm button. What happened next?', 'What got in the way?']);
    // Something said after the shrug is an answer too; a bare shrug that is not a "don't know" may still get room to think.
    expect((await run(['I clicked the confirm button.', 'Not sure, it just sat there.']))[1]).toBe('What got in the way?');
    expect((await run(['I clicked the confirm button.', 'Meh.']))[1]).toBe('What comes to mind, even if it is something small?');
  });

  it('hears a no: asks once to say more, never for an example of nothing, then moves on', async () => {
    expect(await run(['No.', 'Nothing else.', 'It took a while but the bank transfer eventually went through after I retried it twice.'])).toEqual([
      'Could you say a bit more about that?',
      'What got in the way?',
      null,
    ]);
    // After a named follow-up, a "nothing really" is the answer.
    expect(await run(['I clicked the confirm button.', 'Nothing really.'])).toEqual(['You mentioned the confirm button. What happened next?', 'What got in the way?']);
    // A shrug has nothing in it to name back.
    expect(followUp('Fine.', 0, '')).toBe('Could you say a bit more about that?');
    expect(followUp('Not sure.', 1, '')).toBe('What comes to mind, even if it is something small?');
  });

  it('turns the participant\'s own words to "you" and never leads', async () => {
    expect(followUp('My manager wanted it.', 0, '')).toBe('You mentioned your manager. What happened next?');
    expect(followUp('The export was broken.', 0, '')).toBe('You mentioned the export. What happened next?'); // "was" tells what happened too
    expect(followUp('My team uses the dashboard.', 0, '')).toBe('Could you tell me more about the dashboard?');
    // A thing named alone is asked about; "What happened next?" follows a story.
    expect(followUp('Invoices.', 0, '')).toBe('Could you tell me more about invoices?');
    // A name keeps its capital: one the model never saw, one that is a verb in lower case, one of two words.
    expect(followUp('Trello.', 0, '')).toBe('Could you tell me more about Trello?');
    expect(followUp('Excel, mostly.', 0, '')).toBe('Could you tell me more about Excel?');
    expect(followUp('Google Sheets.', 0, '')).toBe('Could you tell me more about Google Sheets?');
    expect(followUp('Same as always, the 7pm one.', 0, '')).toBe('Could you say a bit more about that?');
    expect(followUp('My friend uses the website instead.', 0, '')).toBe('Could you tell me more about the website?');
    expect(followUp('Booking spin on my phone.', 0, '')).toBe('Could you tell me more about booking spin?');
    // Worded differently the second time, and still about a thing, not "what happened next".
    expect(followUp('Spreadsheets.', 1, 'Could you tell me more about invoices?')).toBe('What is your experience with spreadsheets?');
    // Only a term of the participant's own is asked what it means; "What do you mean by the client?" talks down.
    expect(followUp('Month-end close.', 1, 'Could you tell me more about invoices?')).toBe('What do you mean by the month-end close?');
    expect(followUp('For a client. Plumbing job.', 1, 'Could you tell me more about the invoice?')).toBe('What is your experience with the client?');
    // Where an example was asked for, a vague answer is not asked for one again.
    expect(followUp('Dunno, it was fine I guess.', 1, 'Could you share a concrete recent example?\nCould you say a bit more about that?')).toBe('What comes to mind, even if it is something small?');
    // A bare "No." is an answer (the tagger reads it as the abbreviation "No."), not a thing to name back.
    expect(followUp('No.', 0, '')).toBe('Could you say a bit more about that?');
    // Spoken shrugs are not things either; a degree word stays with what it qualifies.
    expect(followUp('Dunno, the usual stuff.', 0, '')).toBe('Could you say a bit more about that?');
    expect(followUp('Nah.', 0, '')).toBe('Could you say a bit more about that?');
    expect(followUp('Way too many steps.', 0, '')).toBe('Could you tell me more about way too many steps?');
    expect(followUp('My manager wanted it.', 1, 'You mentioned your manager. What happened next?')).toBe('Could you walk me through an example of that?');
    expect(followUp('The export dialog and the PDF preview.', 1, 'You mentioned the export dialog. What happened next?')).toBe('Could you tell me more about the PDF preview?');
    for (const answer of ['Yes.', 'It was fine', 'I hated the confirm button', 'no', 'I was frustrated with the sync']) {
      for (const n of [0, 1]) {
        const q = followUp(answer, n, '');
        expect(q).not.toMatch(/^(?:was|were|did|do|does|is|are|would|wasn't|didn't)\b/i);
        expect(q).not.toMatch(/frustrat|annoy|confus|hard|difficult|easy|love|hate|great|bad\b/i);
        expect(directedText(q ?? "")).toBeNull();
      }
    }
  });
});

/** What the built-in interviewer says through a talk segment, given the participant's answers in turn. */
/** What the interviewer asks through a segment, given these answers; `earlier` is what was said in other segments. */
/** What the rule interviewer asks through one segment, given the participant's answers (and their notes from the task before it). */
async function talkThrough(segment: Segment, answers: string[], earlier: string[] = [], notes?: string[]): Promise<Array<string | null>> {
  const turns: Turn[] = [];
  let next = await ruleInterviewer.next({ segment, turns, state: NEW_TALK, earlier, notes });
  const asked = [next.say];
  for (const answer of answers) {
    if (!next.say) break;
    turns.push({ role: 'conductor', text: next.say }, { role: 'participant', text: answer });
    next = await ruleInterviewer.next({ segment, turns, state: next.state, earlier, notes });
    asked.push(next.say);
  }
  return asked;
}

describe('questions already answered', () => {
  const context: Segment = { id: 'c', mode: 'talk', title: 'Context', instruction: 'Ask what they were trying to get done today. Ask for a concrete recent example. Ask what they used before.' };
  const friction: Segment = { id: 'f', mode: 'talk', title: 'Friction', instruction: 'Ask about any moment where the product slowed them down. Ask what they expected to happen instead, and how they worked around it. Ask what they would change first.' };

  it('does not ask for an example after the participant told one', async () => {
    expect(await talkThrough(context, ['Yesterday I had to pay three suppliers before noon and the bank link kept expiring.', 'I rang the bank and they reset the link.', 'A spreadsheet and a lot of patience, honestly.'])).toEqual([
      'What were you trying to get done today?',
      'What did you do then?', // the trouble in a full answer gets one open probe
      'What did you use before?',
      null,
    ]);
    // An opinion is not an occasion: the example is still asked for.
    expect(await talkThrough(context, ['Paying suppliers is always a pain with these banking tools, they are all slow.'])).toEqual([
      'What were you trying to get done today?',
      'Could you share a concrete recent example?',
    ]);
  });

  it('does not ask for the last time after "I have never used it", nor what they did after they said so', async () => {
    expect((await talkThrough(context, ["Honestly I've never used this before, my boss just sent me the link this morning."]))[1]).toBe('What did you use before?');
    const went: Segment = { id: 'w', mode: 'talk', title: 'How it went', instruction: 'Ask how it went for them. Ask what they did at that point.' };
    expect(await talkThrough(went, ['The export kept failing, so I ended up copying the numbers into a spreadsheet by hand.'])).toEqual(['How did it go for you?', null]);
  });

  it('does not ask what they expected "instead" after they said nothing slowed them down', async () => {
    expect(await talkThrough(friction, ['No.', 'Not really.', 'The colours of the dashboard, they are hard to read.'])).toEqual([
      'Could you tell me about any moment where the product slowed you down?',
      'Could you say a bit more about that?',
      'What would you change first?',
      null,
    ]);
    expect((await talkThrough(friction, ['The export froze for a minute before anything happened, twice in a row.']))[1]).toBe(
      'What did you expect to happen instead, and how did you work around it?',
    );
  });
});

describe('a participant who says more, or asks back', () => {
  const segment: Segment = { id: 'v', mode: 'talk', title: 'Value', instruction: 'Ask what they use the app for. Ask what would make it worth recommending.' };
  const next = (answers: string[]) => {
    const turns: Turn[] = [{ role: 'conductor', text: 'What do you use the app for?' }];
    for (const a of answers) turns.push({ role: 'participant', text: a });
    return ruleInterviewer.next({ segment, turns, state: NEW_TALK });
  };

  it('digs once into a full answer that tells of trouble or a way around it, without naming a feeling', async () => {
    expect((await next(['Booking classes, but the app logs me out so I ended up booking on the website instead.'])).say).toBe('How did that work out for you?');
    expect((await next(['Booking classes, and twice this month I could not cancel one in time.'])).say).toBe('What did you do then?');
    expect((await next(['Booking classes, I wish it remembered my usual spot in the studio.'])).say).toBe('What would that look like for you?');
    expect((await next(['Booking my spin classes for the week, usually on a Sunday evening.'])).say).toBe('What would make it worth recommending?');
    // A wish or a maybe is not a story of trouble: "What did you do then?" would make no sense.
    expect((await next(["Booking classes. If it showed the waitlist instead of the schedule, maybe?"])).say).toBe('What would make it worth recommending?');
    expect((await next(["Booking classes, then I wouldn't have to think about it ever again."])).say).toBe('What would make it worth recommending?');
  });

  it('asks again when the participant did not follow, and says it heard a question of their own', async () => {
    for (const puzzled of ['What do you mean?', 'What?', 'Sorry?', "I don't understand.", 'Use it for what?', 'Did what??']) {
      expect((await next([puzzled])).say).toBe('Sorry, that was unclear. This part is about value. What do you use the app for?');
    }
    // Who they are talking to, and that they may stop, is said plainly.
    expect(acknowledgement('Who are you? Is this a real person?')).toBe(WHO_WE_ARE);
    expect(acknowledgement('No. Can I go now?')).toBe(STOPPING); // and the engine ends the interview
    expect(acknowledgement('How long is this going to take?')).toBe(FREE_TO_GO);
    expect((await next(['No. Can I go now?'])).say).toBe('What would make it worth recommending?');
    expect((await next(['Whatever works.'])).say).toBe('Could you say a bit more about that?');
    expect(acknowledgement('Is this where I cancel my membership? I have been looking for the button for ages.')).toBe(ACKNOWLEDGEMENT);
    expect(acknowledgement('It logs me out every week, you know?')).toBeNull();
    expect(acknowledgement('Like what?')).toBeNull();
    expect(acknowledgement('Booking classes, mostly.')).toBeNull();
    for (const said of [ACKNOWLEDGEMENT, WHO_WE_ARE, FREE_TO_GO]) expect(directedText(said)).toBeNull();
  });
});

describe('a third reading of the starter study', () => {
  const seg = (id: string) => starterScript.segments.find((x) => x.id === id) as Segment;

  it('takes a polite no to "anything else?" as the answer', async () => {
    for (const no of ['No, that is everything, thanks.', "I think I've covered it, honestly.", 'No I think that is it.']) expect((await talkThrough(seg('anything-else'), [no]))[1]).toBeNull();
  });

  it('asks again after an echo question, and leaves a participant who wants to go alone', async () => {
    expect((await talkThrough(seg('friction'), ['How did what go?']))[1]).toBe('Sorry, that was unclear. This part is about how it went. What happened when you tried it?');
    expect((await talkThrough(seg('context'), ['I came to send invoices to three of my clients today.', 'A spreadsheet my accountant set up for me years ago.', 'The last time I did what?']))[3]).toBe(
      'Sorry, that was unclear. This part is about what brought you here. Could you tell me about the last time you had to send invoices?',
    );
    expect((await talkThrough(seg('value'), ['Can I go now?']))[1]).toBeNull();
  });

  it('asks what they did unless their last answer said so, and not after nothing happened', async () => {
    const friction = seg('friction');
    expect(await talkThrough(friction, ['The date picker kept resetting when I switched months, which was odd.', 'Finding the export button took longer than I expected, a good five minutes.'])).toEqual([
      'How did it go for you?',
      'What, if anything, took longer than you expected?',
      'What did you do at that point?',
    ]);
    // "What, if anything, took longer…?" takes a no for its answer at once.
    expect((await talkThrough(friction, ['It went fine overall, I would say, no real surprises.', 'Nothing took long. Is that the right answer?'])).slice(2)).toEqual([null]);
  });

  it("asks for the last time after an answer that only names last quarter's work", async () => {
    expect((await talkThrough(seg('context'), ["I came to export last quarter's invoices for my accountant.", 'A spreadsheet and a lot of copying by hand.']))[2]).toBe('Could you tell me about the last time you had to export your invoices?');
  });

  it('says it cannot answer once in full, then in shorter words, never leaving a question unheard; digs into confusion', async () => {
    const said: string[] = [];
    for (const question of ['Is this about the dashboard?', 'Should I open the app now?', 'Can I use the mobile app too?', 'Is dark mode on the roadmap?', 'What would you have done?', 'Did you get my question about dark mode?']) {
      const heard = acknowledgement(question, { said: said.join('\n') });
      if (heard) said.push(heard);
    }
    expect(said).toEqual([ACKNOWLEDGEMENT, 'Noted for the team.', "I'll pass that question on to the team.", 'The team will see that question too.', 'Noted for the team.', 'Noted for the team.']);
    expect((await talkThrough(seg('friction'), ['It was confusing because I did not know where to start on the page.']))[1]).toBe('What, if anything, took longer than you expected?');
    expect((await talkThrough({ id: 'x', mode: 'talk', title: 'Use', instruction: 'Ask how it went for them. Ask what they would change.' }, ['It was confusing because I did not know where to start on the page.']))[1]).toBe('What did you do then?');
  });
});

describe('a fourth reading: what a walkthrough of five participants found', () => {
  const seg = (id: string) => starterScript.segments.find((x) => x.id === id) as Segment;

  it('does not press someone who would rather not say, or who said it already', async () => {
    for (const no of ["I'd rather not answer that.", 'Can we skip this one?', 'Pass.', "I don't want to talk about that."]) {
      expect(heardAs(no), no).toBe('skip');
      expect(acknowledgement(no)).toBe(SKIPPED);
      expect((await talkThrough(seg('friction'), [no]))[1], no).toBe('What, if anything, took longer than you expected?');
    }
    for (const again of ['I already told you.', 'I already told you. Twice.', 'Said already.', 'As I said, Excel.']) {
      expect(heardAs(again), again).toBe('already');
      expect((await talkThrough(seg('friction'), [again]))[1], again).toBe('What, if anything, took longer than you expected?');
    }
    expect(heardAs('As I said before, the bank link expires every ninety days and nobody tells you until a payment bounces.')).toBeNull();
  });

  it('answers a question about the interview and asks the question again', async () => {
    expect(heardAs('Sorry, who are you? Is this a real person?')).toBe('meta');
    expect(heardAs('What is this for?')).toBe('meta');
    expect(acknowledgement('What is this for?')).toBe(WHY_WE_ASK);
    expect(acknowledgement('Does anyone actually read these?')).toBe(WHO_READS);
    expect((await talkThrough(seg('context'), ['Who are you?']))[1]).toBe('What did you come to do today?');
    expect((await talkThrough(seg('friction'), ['Oh, you mean paying the bill?']))[1]).toBe('How did it go for you?');
    expect(acknowledgement('Oh, you mean paying the bill?')).toBe(YOUR_READING);
  });

  it('takes a suggestion with a rising "?" as an answer, not a question to answer', () => {
    expect(heardAs('um, maybe a button, like, send to accountant directly?')).toBeNull();
    expect(acknowledgement('um, maybe a button, like, send to accountant directly?')).toBeNull();
    expect(acknowledgement('Can it export in bulk? A bulk export that works.')).toBe(ACKNOWLEDGEMENT);
  });

  it('asks once more when puzzled, then moves on instead of repeating itself', async () => {
    for (const puzzled of ['Use for what? I just logged in to pay a supplier bill.', 'More useful how?', 'About what? I asked you a question.']) expect(heardAs(puzzled), puzzled).toBe('puzzled');
    const asked = await talkThrough(seg('friction'), ['What do you mean?', 'Sorry?']);
    // Asked again in plainer words.
    expect(asked[1]).toBe('Sorry, that was unclear. This part is about how it went. What happened when you tried it?');
    expect(asked[2]).toBe("No problem, let's move on. What, if anything, took longer than you expected?");
  });

  it('ends at a no to "anything else?", and hears an apology for their English', async () => {
    expect((await talkThrough(seg('anything-else'), ['no i think is all, sorry for my english']))[1]).toBeNull();
    expect(acknowledgement('no i think is all, sorry for my english')).toBe(CLEAR_ENGLISH);
  });

  it('names what was said back whole, with its capitals', () => {
    expect(followUp('Two-factor code. Slow.', 0, '')).toBe('Could you tell me more about the two-factor code?');
    expect(followUp('Month-end close.', 0, '')).toBe('Could you tell me more about the month-end close?');
    expect(followUp('A paper folder and the bank website.', 0, '')).toBe('Could you tell me more about the paper folder?');
    expect(followUp('Pen and paper.', 0, '')).toBe('Could you tell me more about pen and paper?');
    expect(followUp('Sage 50.', 0, '')).toBe('Could you tell me more about Sage 50?');
    expect(followUp('Login.', 0, '')).toBe('Could you tell me more about login?');
    expect(followUp('A spreadsheet.', 0, '')).toBe('Could you tell me more about the spreadsheet?');
    expect(followUp('Faster login.', 0, '')).toBe('Could you tell me more about faster login?');
    // The frame heard less often in the interview comes first.
    expect(followUp('Invoices.', 0, '', [], 'Could you tell me more about Excel?\nCould you tell me more about the bank?')).toBe('What is your experience with invoices?');
    expect(followUp('Fine.', 0, '', [], 'Could you say a bit more about that?')).toBe('What comes to mind, even if it is something small?');
    // Too little to have an example of.
    expect(followUp('Fine, but the bank link expired again.', 0, '')).toBe('You mentioned the bank link. What happened next?');
    // What they did, said in a word, is asked how it went ("Typed them all." → not "How so?").
    expect(followUp('Waited.', 1, 'Could you say a bit more about that?')).toBe('How did that go?');
    expect(followUp('Typed them all.', 1, 'Could you say a bit more about that?')).toBe('How did that go?');
    // Room to think is for a shrug, not for a short answer that says something.
    expect(followUp('Just faster.', 1, 'Could you say a bit more about that?')).toBe('How so?');
    expect(followUp('Not sure.', 1, 'Could you say a bit more about that?')).toBe('What comes to mind, even if it is something small?');
  });

  it('takes a habit for a habit, not the last time', async () => {
    const context = seg('context');
    const habit = await talkThrough(context, ['I do the books myself on Thursday evenings, paying the suppliers.', 'Excel and the bank website before this, for about three years.']);
    expect(habit[2]).toBe('Could you tell me about the last time you did it?');
    const occasion = await talkThrough(context, ['On Tuesday I paid three suppliers from the office, all in one go.', 'Excel and the bank website before this, for about three years.']);
    expect(occasion[2]).toBeNull();
  });

  it('digs into a mistake or a silent failure told in passing', async () => {
    const use: Segment = { id: 'x', mode: 'talk', title: 'Use', instruction: 'Ask how it went for them. Ask what they would change.' };
    expect((await talkThrough(use, ['Mostly fine, although I once sent 400 euros to the wrong account with it.']))[1]).toBe('What did you do then?');
    expect((await talkThrough(use, ['I click export and nothing, no file, no message, it just sits there.']))[1]).toBe('What did you do then?');
  });

  it('says the notes typed during the task were read', () => {
    // The fullest note is named.
    expect(notesHeard(['looking for Bills... nothing happened', 'found it'])).toBe('Thank you for your notes about Bills. ');
    expect(notesHeard(['ok', 'hmm'])).toBe('Thank you for your notes. ');
  });

  it('hears a wish to leave however it is put, and a question however it starts (second walkthrough)', async () => {
    for (const leaving of ["I'm done.", 'Stop.', "I don't have time for this. Bye.", 'Honestly I\'m short on time. Can we wrap this up quickly?', 'I need to run, sorry.']) expect(heardAs(leaving), leaving).toBe('stop');
    expect(heardAs("That's private.")).toBe('skip');
    expect(heardAs('Waited. Told you.')).toBe('already');
    expect(followUp('Slow.', 0, '')).toBe('Could you say a bit more about that?'); // a quality, not a thing to ask about
    expect(followUp('maybe 10 minutes to find', 1, 'Could you say a bit more about that?')).toBe('How so?');
    expect((await talkThrough(seg('anything-else'), ['Maybe a button on the first page?']))[1]).not.toBeNull();
    const use: Segment = { id: 'x', mode: 'talk', title: 'Use', instruction: 'Ask how it went for them. Ask what they would change.' };
    expect((await talkThrough(use, ['Fine.', 'no i think is all']))[2]).toBe('What would you change?'); // "that's all" is heard as a no
    expect(heardAs("I'm always short on time at month end, so I pay everything in one evening and the bank app logs me out halfway.")).toBeNull();
    expect(acknowledgement('Just a question: can I pay several suppliers in one batch here? I never found out how.')).toBe(ACKNOWLEDGEMENT);
    expect(acknowledgement('Is this going to take long?', { partsLeft: 3 })).toBe(`After this, there are 2 more short topics to cover. ${FREE_TO_GO}`);
    expect(acknowledgement('Is this going to take long?', { partsLeft: 1 })).toBe(`This is the last topic. ${FREE_TO_GO}`);
    for (const puzzled of ['What about it?', 'Can you give me an example?']) expect(heardAs(puzzled), puzzled).toBe('puzzled');
    expect(heardAs('Nothing! Are you even reading this?')).toBe('meta');
    expect(acknowledgement('Nothing! Are you even reading this?')).toBe(WHO_READS);
  });

  it('does not restate a title the question already says, and does not ask what they did after "I didn\'t do anything"', async () => {
    expect((await talkThrough(seg('value'), ['What do you mean?']))[1]).toBe('Sorry, that was unclear. What would you change to make the product better for you?');
    expect((await talkThrough(seg('friction'), ['It went badly, the bank link had expired again and I had no idea.', "I just told you, I didn't do anything."]))[2]).not.toBe('What did you do at that point?');
  });

  it('keeps asking for the last time after a habit, this week\'s work or "before we open"', async () => {
    const context = seg('context');
    for (const first of ['My cousin, he come on sunday and fix everything, he is accountant.', "I came in to pay this week's supplier invoices, I usually do it on Monday mornings before we open."]) {
      const asked = await talkThrough(context, [first, 'Excel and the bank website, for about three years now.']);
      expect(asked.slice(1).some((q) => q?.startsWith('Could you tell me about the last time you')), first).toBe(true);
    }
  });

  it("puts the participant's own goal where the script says \"it\"", async () => {
    expect(goalOf("I came in to pay this week's supplier invoices, I usually do it on Monday mornings.")).toBe("pay this week's supplier invoices");
    expect(goalOf('um so, like, i was try to export the report for my boss, you know, the monthly one')).toBe('export the report for your boss');
    expect(goalOf('I came to send invoices to three of my clients today.')).toBe('send invoices to three of your clients');
    for (const vague of ['Invoices.', 'Paying them.', 'I needed to update it.', 'Just looking around.']) expect(goalOf(vague), vague).toBeNull();
    // Said by someone still learning English (walkthrough 25): "for" or nothing where "to" would be.
    for (const [said, goal] of [['I am come for pay the bill of my shop', 'pay the bill of your shop'], ['I come for pay my bills', 'pay your bills'], ['i want make transfer to my brother', 'make transfer to your brother'], ['I am here for check my balance', 'check your balance']])
      expect(goalOf(said), said).toBe(goal);
    for (const none of ['I came for the webinar', 'I need help with my account', 'I want it to be faster', 'We want more reports', 'I am come for pay']) expect(goalOf(none), none).toBeNull();
    const asked = await talkThrough(seg('context'), ['I came in to pay a supplier bill, the one for our packaging.', 'Excel and the bank website, for about three years now.']);
    expect(asked.slice(1)).toEqual(['What did you use to pay a supplier bill before?', 'Could you tell me about the last time you had to pay a supplier bill?']);
    // One occasion ("last quarter's") becomes the habit it belongs to, so the question asks about one time only.
    expect(grounded('Could you tell me about the last time you did it?', "export last quarter's invoices")).toBe('Could you tell me about the last time you had to export your invoices?');
    expect(grounded('What did you use for it before?', "pay this week's supplier bills")).toBe('What did you use to pay your supplier bills before?');
  });

  it('digs into fraud and a failure told in non-native English', async () => {
    const use: Segment = { id: 'x', mode: 'talk', title: 'Use', instruction: 'Ask how it went for them. Ask what they would change.' };
    expect((await talkThrough(use, ['Last year I sent 600 euros to a fake account because of a changed IBAN in an email.']))[1]).toBe('What did you do then?');
    expect((await talkThrough(use, ['the export, it not work, i click two, three time and nothing come']))[1]).toBe('What did you do then?');
  });

  it('does not ask what they did when the answer says so after the trouble', async () => {
    const use: Segment = { id: 'x', mode: 'talk', title: 'Use', instruction: 'Ask how it went for them. Ask what they would change.' };
    expect((await talkThrough(use, ['i click export and nothing, no file, no message, and then i have to call him']))[1]).toBe('What would you change?');
  });

  it('hears "no, actually one more thing" to "anything else?" as more to come, not as the end', async () => {
    const more = await talkThrough(seg('anything-else'), ['No, actually one more thing.', 'The bank link expires every ninety days and nobody warns you.']);
    expect(more[1]).toBe('Of course, go ahead.');
    expect(more[2]).toBeNull(); // said, so the interview can end
    for (const back of ['No, but the export is slow.', 'Nothing. Oh wait, the export is slow.']) expect((await talkThrough(seg('anything-else'), [back]))[1], back).not.toBeNull();
    expect((await talkThrough(seg('anything-else'), ['Wait.']))[1]).toBe('Of course, go ahead.');
    expect((await talkThrough(seg('anything-else'), ['No, nothing else.']))[1]).toBeNull();
  });

  it('answers a question typed during the task without guiding, and stays silent to thinking aloud', () => {
    expect(whileWorking('How can you see my screen?')).toBe(NOT_RECORDED);
    expect(whileWorking('Are you recording this?', { recorded: true })).toBe(RECORDED);
    expect(whileWorking('How can you see my screen?', { said: NOT_RECORDED })).toBeNull(); // once
    expect(whileWorking('Where is the pay button?')).toBe(ON_YOUR_OWN);
    expect(whileWorking('What?', { said: ON_YOUR_OWN })).toBe(AS_YOU_WOULD);
    expect(whileWorking('Should I use the real card?', { said: `${ON_YOUR_OWN}\n${AS_YOU_WOULD}` })).toBeNull(); // then it watches
    for (const aloud of ['Looking for Bills now.', 'The page is slow, you know?', 'ok found it', 'hmm, no confirmation']) expect(whileWorking(aloud), aloud).toBeNull();
    expect(acknowledgement('Is this being recorded?')).toBe(NOT_RECORDED);
  });
});

describe('a third walkthrough: six participants, turn by turn', () => {
  const seg = (id: string) => starterScript.segments.find((x) => x.id === id) as Segment;
  const use: Segment = { id: 'x', mode: 'talk', title: 'Use', instruction: 'Ask how it went for them. Ask what they would change.' };

  it('answers a challenge to the interview, and meets a grumble without arguing', async () => {
    for (const why of ['Why should I tell you this?', 'Why do you want to know?', "What's the point of this?"]) {
      expect(heardAs(why), why).toBe('meta');
      expect(acknowledgement(why)).toBe(WHY_WE_ASK);
      expect((await talkThrough(seg('context'), [why]))[1], why).toBe('What did you come to do today?');
    }
    for (const grumble of ['Oh great, another survey.', 'This is a waste of time.', 'Happy now?']) expect(heardAs(grumble), grumble).toBe('grumble');
    expect(acknowledgement('This is a waste of time.', { partsLeft: 3 })).toBe(`${FAIR_ENOUGH} After this, there are 2 more short topics to cover. ${FREE_TO_GO}`);
    expect(acknowledgement('This is a waste of time.', { said: FAIR_ENOUGH })).toBeNull();
    // Annoyance said along with an answer is met the same way, once; the answer still counts.
    for (const both of ['Ugh, another survey. I pay by card mostly.', 'These questions are getting long, but I use Excel for the invoices.']) {
      expect(heardAs(both), both).toBeNull();
      expect(acknowledgement(both, { partsLeft: 2 }), both).toBe(`${FAIR_ENOUGH} After this, there is one more short topic to cover. ${FREE_TO_GO}`);
      expect(acknowledgement(both, { said: FAIR_ENOUGH }), both).toBeNull();
    }
    // Not annoyance at the interview: the product's own questions, time wasted on the task.
    expect(acknowledgement('The app has so many questions in the signup form.')).toBeNull();
    expect(acknowledgement('I used Excel, it was a waste of time doing it by hand.')).toBeNull();
    const sceptic = await talkThrough(seg('context'), ['Oh great, another survey.', 'I came to export my invoices for my accountant.']);
    expect(sceptic[1]).toBe('What did you come to do today?'); // not "Could you tell me more about another survey?"
    // An answer that ends in a jibe is an answer: the jibe is not a question to acknowledge.
    expect(heardAs('It went. The file downloaded. Is that what you wanted to hear?')).toBeNull();
    expect(heardAs('The sync is pointless, it never works.')).toBeNull(); // about the product
  });

  it('hears puzzlement in non-native English, and after a follow-up asks the scripted question again', async () => {
    for (const p of ['what you mean?', 'what mean?', 'i not understand', 'i dont understand the question']) expect(heardAs(p), p).toBe('puzzled');
    for (const answer of ['Sorry. The bank link expired again.', 'Sorry, I was thinking. It went fine.', 'What. A. Mess.']) expect(heardAs(answer), answer).not.toBe('puzzled');
    const asked = await talkThrough(seg('friction'), ['Bad.', 'i dont understand the question']);
    expect(asked[1]).toBe('Could you say a bit more about that?');
    expect(asked[2]).toBe('Sorry, that was unclear. This part is about how it went. What happened when you tried it?');
  });

  it('does not ask what they did when they said so, or for a wish they told', async () => {
    expect((await talkThrough(use, ["The import didn't work, so I typed the hours in by hand."]))[1]).toBe('What would you change?');
    expect((await talkThrough(use, ["I didn't submit it, I'll have to go through it again tonight because it lost the attachments."]))[1]).toBe('What would you change?');
    // A doubt is dug into, without naming a feeling.
    expect((await talkThrough(use, ['not good. i am not sure is safe to give my bank password there']))[1]).toBe('What makes you say that?');
    for (const again of ['Like I said.', 'I literally just told you.']) expect(heardAs(again), again).toBe('already');
    const wished = await talkThrough(seg('value'), []);
    expect(wished[0]).toBe('What would make the product more useful to you?');
    const told = await talkThrough(seg('value'), [], ["What I'd really love is a button that sends it straight to my accountant."]);
    expect(told[0]).toBe('Apart from what you mentioned, what would make the product more useful to you?');
  });

  it('names a thing with its article, and does not name back words of another language', async () => {
    expect(followUp('Bank.', 0, '')).toBe('Could you tell me more about the bank?');
    expect(followUp('Monthly run.', 0, '')).toBe('Could you tell me more about the monthly run?');
    expect(followUp('Payroll.', 0, '')).toBe('Could you tell me more about payroll?');
    expect(followUp('Order page.', 0, '')).toBe('Could you tell me more about the order page?'); // a noun in -er is no comparative
    expect(followUp('Faster login.', 0, '')).toBe('Could you tell me more about faster login?');
    expect(followUp('Invoices.', 0, '')).toBe('Could you tell me more about invoices?');
    expect(notesHeard(['where i click?', 'import again. error'])).toBe('Thank you for your notes about the import. ');
    for (const foreign of ['No sé, el banco no funciona bien.', 'Pues nada, tengo que pagar las facturas.', "Je ne sais pas, c'est très compliqué avec la banque."]) expect(heardAs(foreign), foreign).toBe('foreign');
    // A word of another language said alone is colloquial English too ("Nada."): not named back, not refused.
    for (const word of ['Bien.', 'Nada.', 'Merci!']) {
      expect(heardAs(word), word).toBeNull();
      expect(followUp(word, 0, ''), word).toBe('Could you say a bit more about that?');
    }
    for (const english of ['i want pay the bill but the bank is not connect', 'Trello.', 'No.', 'Sage 50 and Excel.', 'We moved from Xero to Quickbooks via Hubspot.', 'i cant fnd the buton for pay', 'bacs runs, gl codes, ap recon', 'w/ xero mostly, sometimes qbo, pdfs from suppliers']) expect(heardAs(english), english).toBeNull();
    const spanish = await talkThrough(use, ['No sé, el banco no funciona bien.', 'No sé, no sé, el banco.']);
    expect(spanish[1]).toBe(ENGLISH_PLEASE);
    expect(spanish[2]).toBe("No problem, let's move on. What would you change?"); // asked once; then taken as it is, and said so
  });

  it('closes at "Whatever." or "Nope, that\'s all folks!" to "anything else?", and finds the goal after an opener', async () => {
    for (const no of ['Whatever.', "Nope, that's all folks!"]) expect((await talkThrough(seg('anything-else'), [no]))[1], no).toBeNull();
    expect(goalOf('Oh where do I start! I came in to send the quarterly VAT return.')).toBe('send the quarterly VAT return');
  });

  it('ends the task when the participant gives up or says they finished in their own words, and answers a worry about safety', () => {
    for (const done of ['ok done', 'i finish', 'ok finish', 'hello? i finish', 'all done', "I'm done with this.", 'OK I give up.', 'Hello? I said I give up. What now?']) expect(endsTask(done), done).toBe(true);
    for (const note of ["I can't find it anywhere.", 'done with the first step, now the second', 'I gave up on the old app years ago because it was slow and kept crashing.']) expect(endsTask(note), note).toBe(false);
    expect(whileWorking('is asking my bank password, is this safe??')).toBe(YOUR_CALL);
    expect(whileWorking('Are you seriously watching me click a button?')).toBe(NOT_RECORDED);
    const task = 'Could you go ahead and pay your bill, as you normally would, and tell me what you notice along the way?';
    expect(whileWorking('i dont understand what i must do now', { task, said: task })).toBe(`Sorry, that was unclear. ${task}`);
    expect(whileWorking('i dont understand what i must do now', { task, said: `${task}\nSorry, that was unclear. ${task}` })).toBe(ON_YOUR_OWN);
  });

  it('says nothing written for the interviewer in any of its own lines', () => {
    const lines = [ACKNOWLEDGEMENT, AS_YOU_WOULD, CLEAR_ENGLISH, ENGLISH_PLEASE, FAIR_ENOUGH, FREE_TO_GO, GAVE_UP, NOT_RECORDED, ON_YOUR_OWN, RECORDED, SKIPPED, STOPPING, WHO_READS, WHO_WE_ARE, WHY_WE_ASK, YOUR_CALL, YOUR_READING, HERE_AND_NOW, EITHER_WAY];
    for (const line of lines) expect(directedText(line), line).toBeNull();
  });
});

describe('a fourth walkthrough: ordinary answers are not heard as anything else', () => {
  const seg = (id: string) => starterScript.segments.find((x) => x.id === id) as Segment;

  it('does not let go of someone who is only going somewhere or stopping something', () => {
    for (const answer of [
      'Every Friday I have to go through all the supplier invoices by hand and pay them from the bank site.',
      'I have to go back to the list to pick the next one',
      'I need to run payroll first, then the bills.',
      'I want to stop paying for two tools.',
      "I'd like to stop getting reminder emails for bills I already paid.",
      'I need to leave this tab open for the bank',
      "I'm short on time at month end so I batch everything.",
    ]) expect(heardAs(answer), answer).not.toBe('stop');
    for (const leaving of ['I have to go.', 'Sorry, I need to leave now', 'Can we stop here?', 'I have to run, sorry.']) expect(heardAs(leaving), leaving).toBe('stop');
  });

  it('takes complaints and praise of the product as answers, not as grumbles about the interview', () => {
    for (const answer of [
      "It's annoying that every small bill needs two approvals.",
      "It's ridiculous how many clicks it takes to pay one bill.",
      'This is pointless without bank sync.',
      "Bank feed. It's annoying.",
      "Honestly it's stupid simple, I like it.",
      "It's silly how fast it was compared to the bank.",
      'satisfied',
      'happy now',
      'Oh great, another questionnaire from the tax office to fill in.',
    ]) expect(heardAs(answer), answer).toBeNull();
  });

  it('takes time, product questions and non-native complaints as answers', () => {
    for (const answer of [
      "Nothing really, it didn't take long.",
      'The bank sync is taking long today',
      "What's the point of this button if it doesn't export?",
      "Why do I do it on Fridays? Because that's when the money comes in.",
      'Does anyone read the payment reminders? I never do.',
      'I not understand why the bank ask me the code every time',
      "I don't get why there are two pay buttons",
      'Like what I did last Tuesday, I paid the rent.',
      "Pardon the typos, I'm on my phone. Paid 3 bills.",
    ]) expect(['meta', 'puzzled', 'grumble', 'stop', 'skip'], answer).not.toContain(heardAs(answer));
    for (const skip of ["I'd rather not have to approve twice.", 'I usually skip that step and pay from the bank app.', 'I prefer not to store card details in the browser.', "Next question would be about the price, it's too expensive."]) expect(heardAs(skip), skip).not.toBe('skip');
    expect(whileWorking("I don't understand why there are two pay buttons", { task: 'Could you go ahead?', said: 'Could you go ahead?' })).toBeNull();
  });

  it('does not end the task for giving up on one step, and answers a number-first note', async () => {
    for (const note of ['I give up on the search, going through the menu instead', "I can't do this without my accountant's login, let me find it", 'i quit the old app because of this exact screen']) expect(endsTask(note), note).toBe(false);
    expect(notesHeard(['I paid 3 bills. 2 were late.'])).toBe('Thank you for your notes about 3 bills. ');
    for (const answer of ['suppliers. 4 of them', '1 click not 4 per bill', '10 bills', 'three of them']) expect(followUp(answer, 0, ''), answer).toMatch(/\?$/);
  });

  it('names lowercase product names and quantities as said, skips a typo in the goal, and hears "last wk"', async () => {
    expect(followUp('Another invoice.', 0, '')).toBe('Could you tell me more about another invoice?');
    expect(followUp('xero.', 0, '')).toBe('Could you tell me more about xero?');
    expect(goalOf('pay bils')).toBeNull();
    const hurried = await talkThrough(seg('context'), ['I came to pay the supplier bills.', 'excel + bank site b4. last wk took ages, bank kept loggin me out', 'x']);
    expect(hurried).not.toContain('Could you tell me about the last time you had to pay the supplier bills?');
    expect(notesHeard(['where r bills', 'found the duplicate bill from the bakery supplier', 'Is it safe to enter the IBAN here? It asks for a lot.'])).toBe('Thank you for your notes about the duplicate bill. ');
  });
});

describe('a fifth walkthrough: speech, emoji, shouting, praise and nonsense', () => {
  const seg = (id: string) => starterScript.segments.find((x) => x.id === id) as Segment;
  const use: Segment = { id: 'x', mode: 'talk', title: 'Use', instruction: 'Ask how it went for them. Ask what they would change.' };

  it('hears "done" however it is typed during the task, and as leaving in a talk', () => {
    for (const done of ['ok i think im done', 'um okay im done now', 'done 😤', 'done 👍', 'k done', 'done thank you', "I think I'm done", 'uh done']) expect(endsTask(done), done).toBe(true);
    expect(heardAs('ok i think im done')).toBe('stop');
    expect(heardAs('😂 no')).toBeNull();
    expect(plain('😂 no')).toBe('no');
    expect(plain('**I gave up** and used the API instead 🙃')).toBe('I gave up and used the API instead');
    expect(plain('THE EXPORT NEVER WORKS!!! 😡😡')).toBe('The export never works!!!');
  });

  it('names nothing it should not: keys hit, shouting, "no issues", praise', async () => {
    for (const nonsense of ['asdf', 'jjjjjj', 'xkcd']) expect(followUp(nonsense, 0, ''), nonsense).toBe('Could you say a bit more about that?');
    expect((await talkThrough(use, ['THE EXPORT NEVER WORKS!!! 😡😡']))[1]).toBe('Could you tell me more about the export?');
    for (const praise of ['Love the app ❤️', "It's great, no issues at all", 'Perfect, no problems', 'Just keep up the good work!']) expect((await talkThrough(use, [praise]))[1], praise).toBe('What makes it work well for you?');
    // "can't think of anything" is no trouble to dig into.
    expect((await talkThrough(use, ["Honestly I can't think of anything, it's great as it is."]))[1]).toBe('What would you change?');
    for (const no of ['uh no', '😂 no', 'um no thats all thanks']) expect((await talkThrough(seg('anything-else'), [no]))[1], no).toBeNull();
  });

  it('keeps the goal free of emoji and corrections, and does not ask what they used before their first business', async () => {
    expect(goalOf('I came to export my sales report 📊')).toBe('export your sales report');
    expect(goalOf('I came in to pay the bills. Sorry, I meant the invoices page, not bills — I was sending invoices.')).toBeNull();
    const first = await talkThrough(seg('context'), ['I came to send an invoice to my first client. We had nothing before, it is my first business.']);
    expect(first[1]).toBe('Could you tell me about the last time you had to send an invoice?');
    expect(whileWorking('WHY DOES THIS KEEP HAPPENING???')).toBeNull(); // said to the screen
    expect(whileWorking('IS THIS SAFE???')).toBe(YOUR_CALL);
  });

  it('says once that they need not go on, after three answers with nothing in them', async () => {
    const asked = await talkThrough(seg('friction'), ['?', '.', 'k']);
    expect(asked[3]).toBe(`${CHECK_IN} What did you do at that point?`);
    expect(directedText(CHECK_IN)).toBeNull();
    expect((await ruleInterviewer.next({ segment: seg('value'), turns: [{ role: 'conductor', text: 'What would make the product more useful to you?' }, { role: 'participant', text: 'asdf' }], state: NEW_TALK, earlier: ['?', '.'], interview: CHECK_IN })).say).not.toContain(CHECK_IN);
  });
});

describe('a sixth walkthrough: ordinary, cooperative participants', () => {
  const seg = (id: string) => starterScript.segments.find((x) => x.id === id) as Segment;

  it('asks for the last time unless an answer opens with an occasion', async () => {
    const asked = await talkThrough(seg('context'), ['I wanted to send an invoice to a new client for the logo work I finished last week.', 'Word templates and a spreadsheet of who owes me what, for about a year now.']);
    expect(asked.slice(1)).toContain('Could you tell me about the last time you had to send an invoice?');
    const told = await talkThrough(seg('context'), ['I came to send an invoice. Last week I sent three and one bounced.', 'Word templates and a spreadsheet of who owes me what, for about a year now.']);
    expect(told.slice(1).some((q) => q?.includes('the last time'))).toBe(false);
  });

  it('takes a wish put as a question for the answer it is', async () => {
    const wish = 'Could it just remember that I am not VAT registered?';
    expect(acknowledgement(wish, { asked: 'What would make the product more useful to you?' })).toBeNull();
    expect(acknowledgement(wish, { asked: 'How did it go for you?' })).toBe(ACKNOWLEDGEMENT);
    expect((await talkThrough(seg('value'), [wish]))[1]).toBe('What would that look like for you?');
  });

  it('names the thing, not a word around it, and does not ask what they did when a clipped answer says so', async () => {
    for (const [answer, not] of [['Slow, lots of typing.', 'lots'], ['End of last term.', 'the end'], ['Last Monday, took all morning.', 'Last Monday']]) expect(followUp(answer, 0, ''), answer).not.toContain(not);
    const friction = await talkThrough(seg('friction'), ['The columns came out wrong and nothing lined up with the school system.', 'Took longer than it should to find the CSV option.', 'Rearranged them by hand.']);
    expect(friction.filter((q) => q === 'What did you do at that point?').length).toBeLessThanOrEqual(1);
    expect(friction.at(-1)).not.toBe('What did you do at that point?');
  });

  it('words a second follow-up differently from the first, and does not repeat a line said earlier in the interview', () => {
    const said = 'You mentioned the bank. What happened next?';
    expect(followUp('Then the VAT field was wrong.', 1, said)).not.toMatch(/^You mentioned/);
    expect(followUp('Then the VAT field was wrong.', 0, '', [], 'You mentioned the VAT field. What happened next?')).not.toBe('You mentioned the VAT field. What happened next?');
  });

  it('leaves time phrases out of the goal, thanks the note that tells of trouble, and hears "done" at the end of a note', () => {
    expect(goalOf('I came in to pay my supplier bills for the week.')).toBe('pay your supplier bills');
    expect(notesHeard(['Opening the gradebook now and looking around.', 'Only PDF? Expected CSV.', 'Found CSV under the arrow.'])).toBe('Thank you for your notes about PDF. ');
    expect(endsTask('ok sent it. done')).toBe(true);
  });
});

describe('an eighth walkthrough: studies the team wrote as discussion guides', () => {
  it('hears a refusal with a tag after it, and the end of a task said haltingly', () => {
    expect(heardAs("I'd rather not talk about mistakes, to be honest.")).toBe('skip');
    expect(heardAs("I'd rather not go into that, if you don't mind.")).toBe('skip');
    for (const lost of ['What mean "recs"?', 'What does recs mean?', 'What is "off-cycle"?']) expect(heardAs(lost), lost).toBe('puzzled');
    expect(heardAs('What does it cost?')).toBe('question');
    for (const done of ['I can not do this', 'I cannot do this.', 'Done I think?']) expect(endsTask(done), done).toBe(true);
    expect(heardAs('I use the app. How long is this going to take? I only have a few minutes.')).toBe('question');
    expect(acknowledgement('I use the app. How long is this going to take? I only have a few minutes.', { partsLeft: 3 })).toContain('After this, there are 2 more short topics to cover.');
  });

  it('takes a no to "anything we didn\'t cover?" as the answer, and a wish asked as a question as one', async () => {
    const wrap: Segment = { id: 'w', mode: 'talk', title: 'Wrap-up', instruction: 'Ask: "Is there anything we didn\'t cover?"' };
    expect(await talkThrough(wrap, ["No, that's it."])).toEqual(['Is there anything we didn\'t cover?', null]);
    expect(acknowledgement('Could it import tips straight from the till system?', { asked: 'If you could change one thing about the payroll app, what would it be?' })).toBeNull();
  });

  it('names a label the participant quotes as they quoted it, never a piece of it', () => {
    expect(notesHeard(['I write the name in search.', 'I see "Place hold", I click. It say 12 weeks, this is for me or for all?'])).toBe('Thank you for your notes about "Place hold". ');
    expect(followUp('I clicked "Place hold".', 0, '')).toBe('You mentioned "Place hold". What happened next?');
    expect(followUp('It said "Your payment is being processed and will arrive soon."', 0, '')).not.toMatch(/your payment/i);
  });

  it('names no figure or abbreviation back as if it needed explaining', () => {
    for (const answer of ['About 140 people.', 'The CFO.']) expect(followUp(answer, 0, ''), answer).not.toMatch(/What do you mean by/);
  });

  it('says a segment title in the second person when the participant is lost, or leaves it out', async () => {
    const booking: Segment = { id: 'b', mode: 'talk', title: 'How they book today', instruction: 'Ask how they book appointments today.' };
    const asked = await talkThrough(booking, ['What?']);
    expect(asked[1]).toContain('This part is about how you book today.');
    const coded: Segment = { id: 'c', mode: 'talk', title: 'Booking (g-2)', instruction: 'Ask how they book appointments today.' };
    expect((await talkThrough(coded, ['What?']))[1]).not.toContain('This part is about');
  });
});

describe('a ninth walkthrough: stopping, privacy and "I said that" in other words', () => {
  it('lets a participant go however they ask, and not for a stop in a story', () => {
    for (const stop of ['Please stop the interview.', "I'd like to end the interview.", "I don't want to continue.", "I'm not comfortable continuing with this.", "That's enough for today.", "No, I said I'm done for today. I don't want to do tasks."])
      expect(heardAs(stop), stop).toBe('stop');
    for (const story of ["I don't want to continue paying for two tools.", "That's enough to pay the rent.", 'We stop the interview process at step 3.']) expect(heardAs(story), story).toBeNull();
  });

  it('says who reads the answers to a worry about a manager, hears "I said that" and "Can we move on?"', () => {
    for (const worry of ['Before we start — is my manager going to see this?', 'Is this going to get back to the owner?']) expect(acknowledgement(worry), worry).toBe(ONLY_THE_TEAM);
    for (const already of ['Four years, 250 — I mentioned that.', 'I say already', 'Said that.']) expect(heardAs(already), already).toBe('already');
    expect(heardAs('Can we move on?')).toBe('skip');
    // A word of the question not understood is puzzlement, not a question to note for the team.
    const asked = 'How many covers do you do on a typical Friday, and do you use storage heaters?';
    for (const lost of ['What are covers?', 'What is storage heaters?']) expect(heardAs(lost, asked), lost).toBe('puzzled');
    expect(heardAs('What is the price?', asked)).toBe('question');
    expect(followUp('No questions, thanks.', 0, '')).not.toMatch(/thanks/i);
  });
});

describe('a tenth walkthrough: leaving, finishing and not understanding, in more words', () => {
  it('lets go, ends the task and hears puzzlement however it is put, and takes an answer that opens puzzled as an answer', () => {
    for (const stop of ["I think I'd like to leave it there - the dog needs his walk", "That's enough for me today, thanks.", "I'm going to have to go. Sorry!"]) expect(heardAs(stop), stop).toBe('stop');
    for (const done of ["Forget it, I'm not doing this.", 'Skip this.', "That's me done, I think.", 'I think that is it, I am finished with the import.']) expect(endsTask(done), done).toBe(true);
    for (const step of ['I skip that step usually', 'Forget it, the search never works, I go via the menu.']) expect(endsTask(step), step).toBe(false);
    for (const lost of ['Sorry, month-end is what?', "What's 'renewal' exactly?", "What counts as 'partly paid'?", 'What means without review?']) expect(heardAs(lost), lost).toBe('puzzled');
    expect(heardAs('Sorry, which condition? Do you mean the last time I claimed? That was in August - Biscuit ate a sock and needed an endoscopy. The bill was about £1,400.')).not.toBe('puzzled');
  });

  it('follows the guide\'s branches: asks "If they say yes, ask …" after a yes, and not after a no', async () => {
    const overbook: Segment = { id: 'o', mode: 'talk', title: 'Overbooking', instruction: 'Ask: "Do you ever overbook on purpose?" If they say yes, ask how they decide by how much. Ask what happens when everyone shows up.' };
    expect((await talkThrough(overbook, ['Yes, about 10% on Fridays.', 'We look at last year.'])).slice(0, 3)).toEqual([
      'Do you ever overbook on purpose?',
      'How do you decide by how much?',
      'What happens when everyone shows up?',
    ]);
    expect(await talkThrough(overbook, ['No, never, the owner would kill me.', 'She decides the covers, not me.', 'Chaos.'])).not.toContain('How do you decide by how much?');
    const charges: Segment = { id: 'c', mode: 'talk', title: 'Charges', instruction: 'Follow-up: Any surprise charges? If yes — how did they find out? If they mention the unlock fee, ask whether they knew about it before.' };
    expect(questionPlan({ mode: 'talk', title: 'Charges', instruction: charges.instruction }).branches).toEqual([
      { after: 0, when: 'yes', words: [], question: 'How did you find out?' },
      { after: 0, when: 'mentions', words: ['unlock fee'], question: 'Did you know about it before?' },
    ]);
    expect((await talkThrough(charges, ['Yeah, a $1 unlock fee I never saw coming.']))[1]).toBe('How did you find out?');
  });

  it('hears a yes or a no after the words people put before it, and a yes taken back as a no', () => {
    const yes = { after: 0, when: 'yes' as const, words: [], question: 'How did you find out?' };
    const no = { ...yes, when: 'no' as const };
    for (const a of ['Actually, yes, last month.', 'Um, well, yeah, twice.', 'It has, once.', 'I think so.']) expect([branchApplies(yes, a), branchApplies(no, a)], a).toEqual([true, false]);
    for (const a of ['Honestly? No.', 'Yeah, no, not really.', "I've never had one.", 'Not that I remember.']) expect([branchApplies(yes, a), branchApplies(no, a)], a).toEqual([false, true]);
    expect([branchApplies(yes, 'No idea.'), branchApplies(no, 'No idea.')]).toEqual([false, false]);
  });

  it('after a skip, leaves out the questions that point back at the topic', async () => {
    const claim: Segment = { id: 'c', mode: 'talk', title: 'Declined claims', instruction: 'Ask whether a claim was ever declined. Ask who they contacted about it. Ask what they would change about claiming.' };
    const asked = await talkThrough(claim, ['No. Please can we move on.']);
    expect(asked).toEqual(['Was a claim ever declined?', 'What would you change about claiming?']);
  });
});

describe('a seventh walkthrough: terse participants, task notes', () => {
  const seg = (id: string) => starterScript.segments.find((x) => x.id === id) as Segment;

  it('does not take a tag question for a question, or a verb or particle for a thing', () => {
    expect(heardAs('and then, ok, I put six. Is a workaround, no? But it work.')).toBeNull();
    // A question of their own that ends in a clause is no echo of the question asked.
    expect(heardAs('Did you find out what went wrong?')).toBe('question');
    expect(followUp('Pasted it back in.', 0, '')).not.toMatch(/the in\b/);
    expect(followUp('Uploaded a PDF, took a minute.', 0, '')).not.toMatch(/uploaded/i);
    expect(followUp('Nights, mostly.', 0, '')).not.toMatch(/nights/i);
  });

  it('words the second follow-up differently even when the script asks for an example later', () => {
    const second = followUp('She replied with a grade.', 1, 'You mentioned the teacher. What happened next?', ['Could you tell me about the last time you did it?']);
    expect(second).not.toMatch(/^You mentioned/);
  });

  it('asks what took longer about the task, not about another time, and not what they did when their notes said so', async () => {
    const friction = seg('friction');
    const talk = (notes: string[], earlier: string[], answers: string[]) => {
      const turns: Turn[] = [];
      let say = 'How did it go for you?';
      const asked: string[] = [];
      return (async () => {
        let state = NEW_TALK;
        for (const a of answers) {
          turns.push({ role: 'conductor', text: say }, { role: 'participant', text: a });
          const next = await ruleInterviewer.next({ segment: friction, turns, state, earlier, notes });
          if (!next.say) break;
          asked.push((say = next.say));
          state = next.state;
        }
        return asked;
      })();
    };
    expect(await talk([], ['Last Friday, history essay. Uploaded a PDF, took a minute.'], ['It went fine, the upload page loaded straight away for once.'])).toContain('What, if anything, took longer than you expected?');
    // Hours counted in a note are no time taken; "dragged" is.
    expect(await talk(['It will not let me put 4.5 hours, only whole hours, so I put 5 which is not right.'], [], ['Okay, apart from the hours field, it mostly went as I expected it would.'])).toContain('What, if anything, took longer than you expected?');
    expect(await talk([], [], ['Fine overall. The only thing that dragged was the spirits shelf, because of the half bottles.'])).not.toContain('What, if anything, took longer than you expected?');
    const notes = ['wont upload. says file type not supported', 'converted it on some website, worked'];
    const asked = await talk(notes, [], ['Ok mostly, the graph photo got rejected at first.', 'Finding a converter for the photo of my graph.', 'x']);
    expect(asked).not.toContain('What did you do at that point?');
  });

  it('leaves a day out of the goal, and hears "is finish" as the end of the task', () => {
    expect(goalOf('I wanted to book a spin class for Thursday evening')).toBe('book a spin class');
    for (const done of ['ok i think is finish', 'i think is done', 'Wine fridge done, that was easy. I think that is everything, done!', "That's everything, done!"]) expect(endsTask(done), done).toBe(true);
  });

  it('asks no example of what they did, and no "anything else?" after "nothing else, you\'ve got it all"', async () => {
    expect(followUp('Gave up, kept the A road.', 1, 'You mentioned the A road. What happened next?')).not.toBe('Could you walk me through an example of that?');
    const value = starterScript.segments.find((x) => x.id === 'value') as Segment;
    const segment: Segment = { ...value, instruction: `${value.instruction ?? ''} Ask: "Is there anything else you would like to tell us?"` };
    const asked = await talkThrough(segment, ["Honestly a bulk pay button would be the one thing. Nothing else really, you've got it all."]);
    expect(asked).not.toContain('Is there anything else you would like to tell us?');
  });
});

describe('an eleventh walkthrough: the starter study in the widget, six participants', () => {
  const seg = (id: string) => starterScript.segments.find((x) => x.id === id) as Segment;

  it('asks nothing a participant told in their first answer: what before, the last time, how it ended', async () => {
    const whole =
      "I came to chase two unpaid invoices from my catering jobs. Before Ledgerly I kept everything in an Excel sheet. The last time was in September: a wedding client hadn't paid after 45 days. I ended up phoning them and they paid two days later.";
    expect(await talkThrough(seg('context'), [whole])).toEqual(['What did you come to do today?', null]);
    for (const before of ['Before I found Ledgerly I used Excel.', 'I used Excel before.', 'Until now I used Excel.', 'I was using Excel before this.'])
      expect((await talkThrough(seg('context'), ['I came to send an invoice.'], [before])).slice(1), before).not.toContain('What did you use to send an invoice before?');
    // "I've never used this before" says nothing of what came before; "before lunch" is a time.
    expect((await talkThrough(seg('context'), ["I came to send an invoice. I've never used this before."]))[1]).toBe('What did you use to send an invoice before?');
    expect((await talkThrough(seg('context'), ['I came to send an invoice before Monday.']))[1]).toBe('What did you use to send an invoice before?');
  });

  it('says the goal back as a habit, with its article: "send an invoice", "chase unpaid invoices", "set up a quote"', () => {
    expect(grounded('What did you use for it before?', goalOf('Send invoice'))).toBe('What did you use to send an invoice before?');
    expect(grounded('Could you tell me about the last time you did it?', goalOf('I came to chase two unpaid invoices from my catering jobs.'))).toBe(
      'Could you tell me about the last time you had to chase unpaid invoices?',
    );
    expect(grounded('What did you use for it before?', goalOf('I came to set up a quote for a bakery client.'))).toBe('What did you use to set up a quote before?');
    // Today's task keeps what they said they came to do.
    expect(grounded('Could you go ahead with what you came to do today, as you normally would?', goalOf('I came to set up a quote for a bakery client.'))).toBe(
      'Could you go ahead and set up a quote for a bakery client, as you normally would?',
    );
  });

  it('lets a terse participant answer once: no "the hand", no second follow-up after a named answer, no story asked of a wish', async () => {
    expect(followUp('By hand.', 0, '')).not.toMatch(/hand/);
    expect(followUp('In person.', 0, '')).not.toMatch(/person/);
    expect(await talkThrough(seg('context'), ['Send invoice', 'For a client. Plumbing job.', 'Paper and Word', 'x'])).toEqual([
      'What did you come to do today?',
      'Could you say a bit more about that?',
      'What did you use to send an invoice before?',
      // What they used, named, is the answer: the next question asks about it.
      'Could you tell me about the last time you had to send an invoice?',
      expect.anything(),
    ]);
    expect(await talkThrough(seg('value'), ['Saved parts list.'])).toEqual(['What would make the product more useful to you?', 'Could you tell me more about the parts list?']);
    expect(followUp('Parts list is long.', 0, '')).toBe('Could you tell me more about the parts list?');
  });

  it('does not ask what they did after "I clicked on many menus before I found it"', async () => {
    for (const did of ['i was click on many menu before i find it', 'I clicked on many menus before I found it.'])
      expect((await talkThrough(seg('friction'), ['It went badly.', `The VAT field took long, ${did}`])).slice(2), did).toEqual([null]);
  });

  it('hears "who reads this" after a word or an answer, meets more grumbles, and hears "already said" however much follows', () => {
    expect(acknowledgement('QuickBooks, which was overpriced. Honestly, who actually reads this stuff?')).toBe(ONLY_THE_TEAM);
    expect(acknowledgement('Who reads these answers?')).toBe(ONLY_THE_TEAM);
    for (const grumble of ['Ugh, another feedback popup.', 'Not another feedback form.', 'Sigh, more questions.', 'This is taking forever.']) expect(heardAs(grumble), grumble).toBe('grumble');
    expect(acknowledgement('Ugh, another feedback popup. I came to export my invoices.', { partsLeft: 3 })).toBe(`${FAIR_ENOUGH} After this, there are 2 more short topics to cover. ${FREE_TO_GO}`);
    for (const again of ['Already said. Typed them.', 'I already told you, Excel and Outlook. I just looked at the sheet and emailed people myself.']) expect(heardAs(again), again).toBe('already');
  });

  it('passes a question about the product asked during the task to the team, and still does not guide the task', () => {
    expect(whileWorking('do you know if Ledgerly integrates with Square? my bakery friend uses it')).toBe('Noted for the team.');
    expect(whileWorking('Is dark mode on the roadmap?', { said: 'Noted for the team.' })).toBe("I'll pass that question on to the team.");
    expect(whileWorking('Where do I find quotes? Is a quote the same as an invoice here?')).toBe(ON_YOUR_OWN);
  });

  it('names what the notes were about, not the verb they opened on', () => {
    expect(notesHeard(['Opening the invoices list, I want to filter by overdue.'])).toBe('Thank you for your notes about the invoices list. ');
    expect(notesHeard(['Export button exports a PDF, I wanted CSV. Typical.'])).toBe('Thank you for your notes about the export button. ');
  });
});

describe('a twelfth walkthrough: bullet lists, chat shorthand, misunderstood questions, leaving in a hurry', () => {
  const seg = (id: string) => starterScript.segments.find((x) => x.id === id) as Segment;

  it('hears "what did you mean?" and "did you mean …?" at the end of an answer, and "How did what work out?"', async () => {
    expect(heardAs('What did you mean?')).toBe('puzzled');
    expect(heardAs('Oh, you mean before today? I think it was like 2 clicks to sign up, pretty easy. Wait, what did you mean - before Ledgerly?')).toBe('puzzled');
    expect(heardAs("Going ok I guess, it's a slow month. Oh wait, did you mean how the invoicing went?")).toBe('guess');
    expect(heardAs('More useful? Like, a cheaper plan? Or do you mean features?')).toBe('guess');
    expect(heardAs("How did what work out? I haven't had those things.")).toBe('puzzled');
    expect(heardAs('Did you find out what went wrong?')).toBe('question');
    expect((await talkThrough(seg('value'), ['More useful? Like, a cheaper plan? Or do you mean features?']))[1]).toBe('What would make the product more useful to you?');
  });

  it('reads chat shorthand as words and bullet lines as sentences', async () => {
    expect(plain('idk just word doc tbh and then email it w/e')).toBe("I don't know just word doc and then email it whatever");
    expect(heardAs('wdym its just a word doc template lol')).toBe('puzzled');
    expect((await talkThrough(seg('context'), ['needed to send invoice to a client for the logo job lol', 'idk just word doc tbh and then email it w/e']))[2]).not.toMatch(/tbh/);
    expect(heardAs('Two more:\n- mobile app?\n- does it export to my accountant (Xero)?')).toBe('question');
  });

  it('lets go of someone leaving in a hurry, in whatever words, and not of someone going through invoices', () => {
    for (const leaving of ['i gotta go', 'gtg', 'have to leave, sorry', 'sorry have to run', 'need to go now', 'I must go', "I'm out of time", 'ok Ill finish this later', "Sorry, I'm being called into a meeting.", 'My lunch break is over, sorry.'])
      expect(heardAs(leaving), leaving).toBe('stop');
    expect(heardAs('I have to go through the invoices every week.')).toBeNull();
  });

  it('takes a no to "What, if anything, took longer…?" as the answer, and a wish with "instead" as a wish', async () => {
    expect(await talkThrough(seg('friction'), ['Great, no complaints, all smooth and easy to use, honestly.', 'Nothing at all! Super fast. Love it.'])).toEqual([
      'How did it go for you?',
      'What, if anything, took longer than you expected?',
      null,
    ]);
    expect((await talkThrough(seg('value'), ["I'd want a PDF attachment option instead of only a link."]))[1]).not.toBe('How did that work out for you?');
  });

  it('does not ask for the last time of a task someone who is just looking never had', async () => {
    const asked = await talkThrough(seg('context'), ["Just checking things out, honestly it's all great, love it!", 'Oh nothing really, this is so much better than anything, love it.', "It's just really nice, everything is easy."]);
    expect(asked.some((q) => q?.includes('the last time'))).toBe(false);
    expect((await talkThrough(seg('context'), ['I came in to send an invoice to a new client for some logo work.', 'A Word template that I fill in by hand every single month.'])).some((q) => q?.includes('the last time'))).toBe(true);
  });

  it('does not ask what someone without a task used "for it" before, and takes "Never." as what they used', async () => {
    for (const answers of [['Just checking things out, honestly.', 'Nothing really.'], ['Nothing in particular, just having a look.', 'Not sure', 'ok'], ['No idea, my boss told me to try it', 'nothing']])
      expect((await talkThrough(seg('context'), answers)).some((q) => q?.includes('before')), answers[0]).toBe(false);
    const withTask = await talkThrough(seg('context'), ['I came in to send an invoice to a new client.', 'Never.']);
    expect(withTask[1]).toBe('What did you use to send an invoice before?');
    expect(withTask[2]).not.toBe('Could you say a bit more about that?');
  });

  it('finds a long goal and one said without "I"', () => {
    expect(goalOf('I wanted to set up automatic payment reminders for my overdue invoices, I have 3 clients who are 30+ days late.')).toBe('set up automatic payment reminders');
    expect(goalOf('Needed to send an invoice to a client.')).toBe('send an invoice to a client');
  });
});

describe('a thirteenth walkthrough: questions back at the interviewer, terse numbers, typos, distress', () => {
  const asked = 'What did you come to do today?';
  const context = { said: asked, asked, partsLeft: 5, recorded: false, minutes: 10 };
  const seg = (id: string) => starterScript.segments.find((x) => x.id === id) as Segment;

  it('answers every question about the interview, with whatever else is said, and in the minutes the invitation gave', () => {
    expect(heardAs('hang on, is this being recorded? like the screen?', asked)).toBe('meta');
    expect(acknowledgement('hang on, is this being recorded? like the screen?', context)).toBe(NOT_RECORDED);
    // The consent screen says clicks are noted during the task: the answer says so too.
    expect(NOT_RECORDED).toContain('what you click on this page');
    expect(heardAs('but like, in minutes? and will my manager see what I write?', asked)).toBe('meta');
    expect(acknowledgement('but like, in minutes? and will my manager see what I write?', context)).toBe(`${ONLY_THE_TEAM} It takes about 10 minutes in all. After this, there are 4 more short topics to cover. ${FREE_TO_GO}`);
    expect(acknowledgement('how long is this?', context)).toBe(`It takes about 10 minutes in all. After this, there are 4 more short topics to cover. ${FREE_TO_GO}`);
    expect(acknowledgement('Is that the last question?', { ...context, minutes: undefined })).toBe(`After this, there are 4 more short topics to cover. ${FREE_TO_GO}`);
    expect(acknowledgement('Email and a bank transfer. Again, why does that matter to you?', context)).toBe(WHY_WE_ASK);
  });

  it('meets push-back without arguing: a leading question, "what do you mean exactly", "I just told you", either reading', () => {
    expect(heardAs("Is this a leading question? You're assuming it was a hassle.", asked)).toBe('meta');
    expect(acknowledgement("Is this a leading question? You're assuming it was a hassle.", context)).toBe(NOT_ASSUMING);
    expect(heardAs("'how did it go' is a bit vague, what do you mean exactly?", 'How did it go for you?')).toBe('puzzled');
    expect(heardAs('Why are you asking what I did? I just told you.', 'What did you do at that point?')).toBe('already');
    expect(heardAs("does 'useful' mean for me or for my company?", 'What would make the product more useful to you?')).toBe('guess');
    expect(acknowledgement("does 'useful' mean for me or for my company?", context)).toBe(EITHER_WAY);
  });

  it('names back no time, count or typo, and no verb the tagger took for a thing', () => {
    for (const answer of ['last fri. 9:15am. took 25 min', '1 task. 0 done. 30 sec', 'i tryed to pay the invoce but it didnt work', 'Tuesday'])
      for (const n of [0, 1]) expect(followUp(answer, n, 'How did it go?') ?? '', answer).not.toMatch(/fri|task|invoce|tryed|tuesday|\d/i);
    expect(followUp('book a room. 2pm thursday', 0, 'What did you come to do today?')).not.toContain('the book');
    expect(followUp('Tuesday', 1, 'Could you say a bit more about that?')).toBe('What happened that day?');
    // A name with a number, a plural and a term of their own are still named.
    expect(followUp('Sage 50.', 0, '')).toBe('Could you tell me more about Sage 50?');
    expect(followUp('Spreadsheets.', 1, 'Could you tell me more about invoices?')).toBe('What is your experience with spreadsheets?');
    expect(notesHeard(['i clickd export report but nothing happend'])).toBe('Thank you for your notes. ');
    expect(notesHeard(["ok so before I start, you didn't answer, is my screen recorded?", 'Found receipts under Billing, the export is greyed out.'])).not.toContain('screen');
  });

  it('takes ordinary answers as answers: assuming, "as I said", breaking down, feeling desperate for a feature', () => {
    for (const answer of ['I was assuming that it would save automatically.', 'The app assumes that you have a printer.', 'As I said the export button is hidden in the settings menu.', 'I already told my boss the export was broken last week.', 'The sync broke down twice last week.', 'Clicking refresh brings it back.', 'I got scared off by the price.', 'I am desperate for a dark mode.'])
      expect([heardAs(answer, asked), acknowledgement(answer, context)], answer).toEqual([null, null]);
    expect(whileWorking("I'm assuming that this is the export button", { said: '' })).toBeNull();
  });

  it('names brands and abbreviations back, and is quick with any run of digits', () => {
    expect(followUp('I use Canva for it.', 0, 'How did it go?')).toBe('Could you tell me more about Canva?');
    expect(followUp('the HR portal', 0, 'How did it go?')).toBe('Could you tell me more about the HR portal?');
    // Each answer takes as long as its length: 5,000 digits would never finish under a backtracking pattern.
    for (const digits of ['1111111111111111111111111111 @', '1234567890123456789012345678 is the invoice number', `${'1'.repeat(5000)} x`]) followUp(digits, 1, 'How did it go?');
  });

  it('thanks a participant who tells of distress, once, without naming the feeling', () => {
    const line = acknowledgement("Badly. I'm sitting here with that same knot in my stomach. Honestly I almost cried back in March.", context);
    expect(line).toBe(THANK_YOU_FOR_TELLING);
    expect(acknowledgement('I was so stressed.', { ...context, said: `${asked}\n${THANK_YOU_FOR_TELLING}` })).toBeNull();
    expect(acknowledgement('The stress test passed fine.', context)).toBeNull();
  });

  it('keeps to the follow-ups the guide allows ("One follow-up per moment"), however terse the answers', async () => {
    const terse = ['1 task. 0 done. 30 sec', 'finding rooms', 'the spreadsheet', 'calendar', 'nothing'];
    expect(await talkThrough(seg('friction'), terse)).toEqual(['How did it go for you?', 'Could you say a bit more about that?', 'What, if anything, took longer than you expected?', 'Could you tell me more about the spreadsheet?', 'What did you do at that point?', null]);
    const none: Segment = { ...seg('friction'), conductor_context: 'No follow-ups: three quick questions.' };
    expect(await talkThrough(none, ['Slow.', 'Meh.', 'Dunno.'])).toEqual(['How did it go for you?', 'What, if anything, took longer than you expected?', 'What did you do at that point?', null]);
    // "At least one follow-up" and "no follow-up questions about pricing" set no limit; an instruction never does.
    const vague = ['Invoices.', 'Meh.'];
    expect((await talkThrough(seg('friction'), vague))[2]).toBe('What, if anything, took longer than you expected?');
    for (const notes of [{ conductor_context: 'Ask at least one follow-up on each moment.' }, { conductor_context: 'No follow-up questions about pricing.' }, { conductor_context: undefined, instruction: `${seg('friction').instruction} One follow-up per moment.` }])
      expect((await talkThrough({ ...seg('friction'), ...notes }, vague))[2], JSON.stringify(notes)).toBe('What comes to mind, even if it is something small?');
  });

  it('asks again without the "it" the participant asks about', async () => {
    const before: Segment = { id: 'b', mode: 'talk', title: 'Anything else', instruction: 'What did you use for it before?' };
    const asked = await talkThrough(before, ["sorry, what's 'it'?"]);
    expect(asked).toEqual(['What did you use for it before?', 'Sorry, that was unclear. What did you use before?']);
  });

  it('does not ask what they did or how it worked out when the answer said so', async () => {
    expect((await talkThrough(seg('friction'), ['Slow.', 'Looking for the invoice page took forever, like 5 minutes, pues I clicked everywhere.'])).slice(1)).not.toContain('What did you do at that point?');
    expect(await talkThrough(seg('context'), ['I wanted to swap a shift. Anyway I ended up finishing it on the computer at work on my lunch.'])).not.toContain('How did that work out for you?');
  });
});

describe('a fourteenth walkthrough: three team-written guides', () => {
  const plan = (mode: 'talk' | 'observe', instruction: string) => questionPlan({ mode, title: 'Part', instruction }).questions;

  it('gives a numbered task its task, and says the scenario the task needs', () => {
    expect(plan('observe', "Task 1: find last month's statement. Tell them to say what they're looking for as they go. Don't help unless they're stuck for more than two minutes.")).toEqual([
      "Could you show me how you would find last month's statement, thinking aloud as you go?",
    ]);
    expect(plan('observe', "Task 2: dispute a charge. Scenario: there's a £42.99 charge from 'StreamFlix' on the card that they don't recognise. Ask them to start a dispute for it. Do not mention the 'Help' tab.")).toEqual([
      "There's a £42.99 charge from 'StreamFlix' on the card that you don't recognise. Could you show me how you would dispute a charge, thinking aloud as you go?",
    ]);
  });

  it('reads questions out of prose: "Start by asking them to …", "once they have told the story, ask …", an aim before "that moment"', () => {
    expect(plan('talk', 'We want to open broadly. Start by asking them to walk you through the last time they opened the app, what they were trying to do and where they were at the time. We are especially interested in how this varies across the week, so once they have told the story, ask how typical that was compared with other weeks.')).toEqual([
      'Could you walk me through the last time you opened the app, what you were trying to do and where you were at the time?',
      'How typical was that compared with other weeks?',
    ]);
    expect(plan('talk', 'We would like to understand the most recent moment when something in the app surprised them, good or bad, and what they did next. Finally, find out whether that moment changed how much they rely on the app.')).toEqual([
      'Could you tell me about the most recent moment when something in the app surprised you, good or bad?',
      'What did you do next?',
      'Did that moment change how much you rely on the app?',
    ]);
  });

  it('takes a count or a time as the whole answer to a question that asks for one, unless it asks why too', async () => {
    const invites: Segment = { id: 's', mode: 'talk', title: 'Setup', instruction: 'Ask how many people they invited. Ask what happened when they tried the import.' };
    for (const count of ['eight.', 'About 20 people', 'twice']) expect((await talkThrough(invites, [count]))[1], count).toBe('What happened when you tried the import?');
    expect((await talkThrough(invites, ['Invoices.']))[1]).toBe('Could you tell me more about invoices?');
    const why: Segment = { id: 'w', mode: 'talk', title: 'Warm-up', instruction: 'Ask when they last looked at a bank statement and why.' };
    expect((await talkThrough(why, ['Yesterday.']))[1]).not.toBeNull();
  });

  it('does not read a "probe:" label out', () => {
    expect(plan('talk', '- walk thru first day of setup\n- probe: what almost made them quit?')).toContain('What almost made you quit?');
  });
});

describe('questions typed without their question mark', () => {
  const asked = 'Could you tell me about the last time you sent an invoice?';
  const context = { said: asked, asked, partsLeft: 2, recorded: false };
  it('are heard as questions at the end of an answer', () => {
    expect(acknowledgement('how long will this take', context)).toBe('After this, there is one more short topic to cover. You can stop at any time with "End interview".');
    expect(acknowledgement('are there many more', context)).toBe('After this, there is one more short topic to cover. You can stop at any time with "End interview".');
    expect(acknowledgement('is this recorded', context)).toBe(NOT_RECORDED);
    expect(acknowledgement('Last week, it was slow. so can I see the results after', context)).toBe(ACKNOWLEDGEMENT);
    expect(acknowledgement('do you work for Ledgerly', context)).toBe(WHO_WE_ARE); // who asks: automatically, for the team
  });
  it('leave answers, fillers and exclamations in question order alone', () => {
    for (const answer of ['Did it by hand', 'Did it the old way', 'we used excel before', 'What I did was call them', 'When I got there it was closed', 'it was slow, do you know what i mean', 'how do i put it, slow', 'are you kidding me', 'Is what it is', 'Was fine'])
      expect(acknowledgement(answer, context), answer).toBeNull();
  });
  it('leave long, comma-joined and rhetorical sentences in question order as answers', () => {
    for (const answer of ['Where do I start', 'What do you know, it worked', 'Why would I use it', 'What was I doing, oh right, paying bills', 'When is it due, every month on the 5th', 'How many more clicks does it need than the old one, too many', 'is this the last one I need to pay this month'])
      expect([heardAs(answer, asked), acknowledgement(answer, context)], answer).toEqual([null, null]);
  });
});

describe('every built-in turn of the starter and fixture studies', () => {
  it('says nothing written for the interviewer', async () => {
    const scripts = { starter: starterScript, fixture: validScript, ...conductorScripts };
    const answers = ['Last week.', 'I clicked the confirm button and nothing happened, so I tried again later from my phone.', 'Not sure.', 'My manager.'];
    let checked = 0;
    for (const [name, script] of Object.entries(scripts)) {
      for (const segment of script.segments as Segment[]) {
        const lines: string[] = [];
        if (segment.mode === 'speak') lines.push(segment.speak_text ?? segment.title);
        else lines.push(...questionPlan(segment).questions);
        if (segment.mode === 'talk') {
          const turns: Turn[] = [];
          let state: TalkState = NEW_TALK;
          let next = await ruleInterviewer.next({ segment, turns, state: state });
          for (const answer of [...answers, ...answers]) {
            if (!next.say) break;
            lines.push(next.say);
            turns.push({ role: 'conductor', text: next.say }, { role: 'participant', text: answer });
            state = next.state;
            next = await ruleInterviewer.next({ segment, turns, state: state });
          }
        }
        for (const line of lines) {
          checked++;
          expect(directedText(line), `${name}/${segment.id}: ${line}`).toBeNull();
        }
      }
    }
    expect(checked).toBeGreaterThan(20);
  });
});

describe('model replies that repeat the instructions', () => {
  const segment = { instruction: 'Ask what the participant was trying to get done today and what they used before. Ask for a concrete recent example.', conductor_context: 'Serves g-context. Prefer stories about the last time over opinions in general.' };
  it('are caught whole, in large part, or by what they say about the participant, and real questions pass', () => {
    expect(echoesInstructions(segment.instruction, segment)).not.toBeNull();
    expect(echoesInstructions('Ask what the participant was trying to get done today', segment)).not.toBeNull();
    expect(echoesInstructions('Sure! I will ask what the participant was trying to get done today and what they used before.', segment)).not.toBeNull();
    expect(echoesInstructions('Prefer stories about the last time over opinions in general.', segment)).not.toBeNull();
    expect(echoesInstructions('This serves g-context: tell me about your day.', segment)).not.toBeNull();
    expect(echoesInstructions('What were you trying to get done today, and what did you use before?', segment)).toBeNull();
    expect(echoesInstructions('Could you give me a concrete example from last week?', segment)).toBeNull();
    expect(echoesInstructions('What did they say when you shared the report with your team?', segment)).toBeNull();
  });
});

describe('whatever a participant types', () => {
  it('gets a reply and never an exception: odd input, numbers first, and every participant line of the first fixtures', async () => {
    const odd = ['?', '.', '...', 'k', 'asdf', ' ', '😀', '!!!', '1', '1.', '2 3 4', "'", '"', '—', '\n\n', 'a\nb', '(', 'http://x.y/z?q=1', '**bold**', '1. one\n2. two', 'THE EXPORT NEVER WORKS!!!', 'x'.repeat(3000), '? ?'];
    const numbersFirst = ['1 click not 4 per bill', '10 bills', '3 of them. 2 were late.', '2 pay buttons??'];
    const fixtures = readdirSync('test/fixtures/transcripts').flatMap((f) => readFileSync(`test/fixtures/transcripts/${f}`, 'utf8').split('\n').map((l) => /^[^:]{1,30}:\s*(.+)$/.exec(l)?.[1]).filter((l): l is string => !!l));
    expect(fixtures.length).toBeGreaterThan(100);
    const talks = starterScript.segments.filter((s) => s.mode === 'talk') as Segment[];
    for (const text of [...odd, ...numbersFirst, ...fixtures]) {
      heardAs(text);
      acknowledgement(text, { partsLeft: 2 });
      whileWorking(text, { task: 'Could you go ahead?' });
      endsTask(text);
      notesHeard([text]);
      goalOf(text);
      for (const n of [0, 1]) followUp(text, n, n ? 'Could you say a bit more about that?' : '');
      for (const segment of talks) {
        const next = await ruleInterviewer.next({ segment, turns: [{ role: 'conductor', text: 'What did you come to do today?' }, { role: 'participant', text }], state: NEW_TALK, earlier: [text] });
        if (next.say !== null) expect(next.say, text.slice(0, 60)).toMatch(/\S/);
      }
    }
  });
});

describe('when the interviewer fails on an answer', () => {
  it('asks the next scripted question instead of showing an error, and logs the failure', async () => {
    const errors: string[] = [];
    const log: Logger = { debug() {}, info() {}, warn() {}, error: (m) => void errors.push(m), child: () => log, enabled: () => true };
    const broken: Interviewer = { next: () => Promise.reject(new Error('cannot read')) };
    const segment = starterScript.segments.find((x) => x.id === 'friction') as Segment;
    const questions = questionPlan(segment).questions;
    expect(await nextTurn(broken, { segment, turns: [], state: NEW_TALK }, log)).toEqual({ say: questions[0], state: { question: 0, follow_ups: 0 } });
    const turns: Turn[] = [{ role: 'conductor', text: questions[0] }, { role: 'participant', text: 'Fine.' }];
    expect(await nextTurn(broken, { segment, turns, state: NEW_TALK }, log)).toEqual({ say: questions[1], state: { question: 1, follow_ups: 0 } });
    expect(errors).toHaveLength(2);
    expect(lineOrNone(() => { throw new Error('no line'); }, log)).toBeNull();
    expect(errors).toHaveLength(3);
    // A working interviewer is not touched.
    expect((await nextTurn(ruleInterviewer, { segment, turns, state: NEW_TALK }, log)).say).toBe(await ruleInterviewer.next({ segment, turns, state: NEW_TALK }).then((n) => n.say));
  });
});

describe('a fifteenth walkthrough: guides written as notes, numbered and branched', () => {
  const plan = (mode: 'talk' | 'observe', instruction: string, title = 'Part') => questionPlan({ mode, title, instruction });

  it('reads "Q1 …" items as questions, a request to walk through as a question, note fragments spelled out', () => {
    expect(plan('talk', 'Q1 Walk me through the last new hire you onboarded with the checklist.\nQ2 Which step took longest? Why?\nQ3 Anything you skipped or did outside Peoplely (spreadsheet, email)?').questions).toEqual([
      'Could you walk me through the last new hire you onboarded with the checklist?',
      'Which step took longest?',
      'Why?',
      'Anything you skipped or did outside Peoplely?',
    ]);
    expect(plan('talk', 'Role + company size. How long using Peoplely?').questions).toEqual(['How long have you been using Peoplely?']);
    expect(plan('talk', 'Magic wand: one change to the checklist? Anything else?').questions).toEqual(['If you could change one thing about the checklist, what would it be?', 'Anything else?']);
  });

  it('keeps short questions of their own and labels that are words of the question', () => {
    expect(plan('talk', 'What did you try first? And then?').questions).toEqual(['What did you try first?', 'And then?']);
    expect(plan('talk', 'How did you pay? Card or cash? Why that one?').questions).toEqual(['How did you pay?', 'Card or cash?', 'Why that one?']);
    expect(plan('talk', 'Did it work? For whom?').questions).toEqual(['Did it work?', 'For whom?']);
    expect(plan('talk', 'Which - if any - tools did you try before?').questions[0]).not.toMatch(/^Which:/);
    expect(plan('talk', 'Q4 planning: how did you prepare the budget?').questions[0]).toMatch(/^Q4 planning/);
    expect(plan('talk', 'Ask how long using the old tool took them each week.').questions[0]).not.toMatch(/have (?:you|I) been/);
  });

  it('takes "(if yes)" and "(if no)" sub-bullets as branches, and answers listed after a question as what to listen for', () => {
    const booking = plan('talk', '2. How did you pick the time slot?\n   - did you find a slot that suited you straight away?\n   - (if no) what did you do instead? waitlist? called the clinic?\n3. Did you have to enter insurance details?\n   - (if yes) how did that go?');
    expect(booking.questions).toEqual(['How did you pick the time slot?', 'Did you find a slot that suited you straight away?', 'Did you have to enter insurance details?']);
    expect(booking.branches).toEqual([
      { when: 'no', words: [], question: 'What did you do instead?', after: 1 },
      { when: 'yes', words: [], question: 'How did that go?', after: 2 },
    ]);
    const reminder = plan('talk', '4. Did you get a reminder before the appointment?\n   - (if yes) how - SMS, email, app notification? was the timing useful?');
    expect(reminder.branches).toEqual([{ when: 'yes', words: [], question: 'How: SMS, email or app notification?', after: 0 }]);
    for (const q of [...booking.questions, ...reminder.questions, ...[...booking.branches, ...reminder.branches].map((b) => b.question)]) expect(q).not.toMatch(/^[-,]|waitlist|clinic\?/i);
  });

  it('asks a branch only when its condition holds and the answer has not said it already', async () => {
    const booking: Segment = { id: 'b', mode: 'talk', title: 'Booking', instruction: '- did you find a slot that suited you straight away?\n   - (if no) what did you do instead? waitlist? called the clinic?\n- Did you have to enter insurance details?\n   - (if yes) how did that go?' };
    expect(await talkThrough(booking, ['No, there was nothing.', 'I came back the next day.', 'Yes, I typed my card number in.'])).toEqual([
      'Did you find a slot that suited you straight away?', 'What did you do instead?', 'Did you have to enter insurance details?', 'How did that go?',
    ]);
    expect((await talkThrough(booking, ['No, nothing fit, so I came back the next day.']))[1]).toBe('Did you have to enter insurance details?');
    for (const no of ['No.', 'Nope', 'Not really.']) expect((await talkThrough(booking, [no]))[1], no).toBe('What did you do instead?');
    expect((await talkThrough(booking, ['Yes, straight away, like I said.']))[1]).toBe('Did you have to enter insurance details?');
  });

  it('says the situation a task is set in, and takes "Get it …" as the task', () => {
    expect(plan('observe', "Task 2: Your 'Harbor Credit Union' account shows 'Sync paused'. Get it syncing again.", 'Task 2: fix a broken sync').questions).toEqual([
      "Your 'Harbor Credit Union' account shows 'Sync paused'. Could you show me how you would get it syncing again, thinking aloud as you go?",
    ]);
  });

  it('hears a participant who does not know a word or does not understand, in plain or non-native English', async () => {
    const slot: Segment = { id: 's', mode: 'talk', title: 'Booking', instruction: 'Did you find a slot that suited you straight away? How did you pick the time slot?' };
    for (const puzzled of ['straight away? i not know this word', 'waitlist? what is?', 'i am not understand the question. video appointment is the doctor in computer?']) {
      expect((await talkThrough(slot, [puzzled]))[1], puzzled).toMatch(/^Sorry, that was unclear\. .*Did you find a slot that suited you straight away\?$/);
    }
    expect((await talkThrough(slot, ['I went on Monday. I not know what happened next with the app, it just showed nothing.']))[1]).not.toMatch(/^Sorry, that was unclear/);
    // Not knowing what the product is doing is an answer, and evidence.
    for (const answer of ["The booking button is greyed out. I don't get it.", 'It keeps logging me out. I do not understand.']) expect(heardAs(answer), answer).not.toBe('puzzled');
  });

  it('names back nothing of a shrug said with a yes ("Yes, all good.")', async () => {
    const reminder: Segment = { id: 'r', mode: 'talk', title: 'Reminders', instruction: 'Did you get a reminder before the appointment?' };
    for (const shrug of ['Yes, all good.', 'All good.']) expect((await talkThrough(reminder, [shrug]))[1], shrug).toBe('Could you say a bit more about that?');
    expect((await talkThrough(reminder, ['yeah, no issues']))[1]).not.toMatch(/no issues|mentioned/i);
  });

  it('ends a task on "done" said with how it ended, not on "done" with what comes next', () => {
    for (const done of ['done, well, it failed', 'Add account, search Northwind, log in with test card, consent, done - connected.', 'done: it failed with error PW-4012']) expect(endsTask(done), done).toBe(true);
    for (const note of ['done, now the payment page', 'done - now the next one', 'Done with step 1, now the payment page', 'I have done this before, it was easy']) expect(endsTask(note), note).toBe(false);
  });

  it('goes back to the question before when asked, and on from there', async () => {
    const core: Segment = { id: 'c', mode: 'talk', title: 'Core', instruction: 'Q2 Which step took longest?\nQ3 Anything you did outside Peoplely?\nQ4 How do you hand steps to IT?' };
    const asked = await talkThrough(core, ['The e-sign step, it took two days because the manager was away.', 'Sorry, can we go back to the previous question? I want to add something.', 'Also the laptop order took a week.', 'We track background checks in a shared spreadsheet because Peoplely has no field for them.']);
    expect(asked.slice(1)).toEqual(['Anything you did outside Peoplely?', 'Which step took longest?', 'Anything you did outside Peoplely?', 'How do you hand steps to IT?']);
    // At the first question of a part, the question before is in the part before: what they add is not this one's answer.
    const first = await talkThrough(core, ['Can we go back to the previous question?', 'The laptop order also took a week.', 'The e-sign step, it took two days because the manager was away.']);
    expect(first.slice(1, 4)).toEqual(['What would you like to add?', 'Thank you for adding that. Which step took longest?', 'Anything you did outside Peoplely?']);
    expect(acknowledgement('Wait, go back one more time please')).toBe('Of course.');
    expect(acknowledgement('I went back to the old tool because the export failed.')).toBeNull();
  });

  it('does not name a guide\'s section ("Core questions", "Wrap-up") as what the part is about', async () => {
    for (const title of ['Core questions', 'Wrap-up', 'Closing', 'Part 2']) {
      const asked = await talkThrough({ id: 's', mode: 'talk', title, instruction: 'Q2 Which step took longest?' }, ['Why what? Sorry, which step of what?']);
      expect(asked[1], title).toBe('Sorry, that was unclear. Which step took longest?');
    }
  });
});

describe('a question an earlier answer already spoke to', () => {
  const core: Segment = { id: 'core', mode: 'talk', title: 'Core questions', instruction: 'Q1 Walk me through the last new hire you onboarded with the checklist.\nQ2 Which step took longest?\nQ3 How do you hand steps to the hiring manager?' };
  const story = 'Honestly the last new hire was a mess: the e-sign step for the contract took the longest because the PDF template would not load.';

  it('is asked as a chance to add to it, not as if nothing had been said', async () => {
    const asked = await talkThrough(core, [story, 'Slacking him works fine.', 'He is quick, he sorts the laptop the same day.', 'Nothing more.']);
    expect(asked.find((q) => q?.includes('Which step took longest?'))).toBe(`${TOUCHED}Which step took longest?`);
    // Nothing in the story spoke to the hand-over: that question is asked plainly.
    expect(asked.find((q) => q?.includes('hand steps'))).toBe('How do you hand steps to the hiring manager?');
    // Said in another part of the interview counts too.
    const who: Segment = { id: 'w', mode: 'talk', title: 'Booking', instruction: 'Who was it for? How did you pick the time slot?' };
    expect((await talkThrough(who, [], ["Last Monday, on my phone, for my daughter's check-up."]))[0]).toBe(`${TOUCHED}Who was it for?`);
    const worry: Segment = { id: 'x', mode: 'talk', title: 'Trust', instruction: 'What, if anything, worries you about letting a budgeting app connect to your bank, and what would reassure you?' };
    expect((await talkThrough(worry, [], ['To get ahead of you: connecting a bank is easy, and my big worry is that the app can move money. Read-only access would reassure me.']))[0]).toMatch(new RegExp(`^${TOUCHED}`));
  });

  it('takes "nothing new" as the answer, and leaves questions about "it" or other words alone', async () => {
    const asked = await talkThrough(core, [story, 'Nothing new, like I said.', 'I email the manager a list.']);
    expect(asked[asked.indexOf(`${TOUCHED}Which step took longest?`) + 1]).toBe('How do you hand steps to the hiring manager?');
    const noMore = await talkThrough(core, [story, 'No.']);
    expect(noMore[noMore.indexOf(`${TOUCHED}Which step took longest?`) + 1]).toBe('How do you hand steps to the hiring manager?');
    // The starter study's questions lean on the participant's own goal: saying it again is not covering them.
    const context = starterScript.segments.find((s) => s.id === 'context') as Segment;
    for (const q of await talkThrough(context, ['I came to pay two supplier invoices.', 'A spreadsheet.', 'Last Friday I paid the printer.'])) expect(q ?? '').not.toContain(TOUCHED);
    const who: Segment = { id: 'w', mode: 'talk', title: 'Booking', instruction: 'Who was it for? How did you pick the time slot?' };
    expect((await talkThrough(who, [], ['Last Monday, on my phone.']))[0]).toBe('Who was it for?');
  });
});

describe('a seventeenth walkthrough: questions in place of answers, tasks labelled with a dash', () => {
  it('hears a reading offered to choose from, or a word asked about with a guess, and asks the question again', async () => {
    const asked = 'Could you walk me through the last expense report you submitted?';
    expect(heardAs('Hmm what counts as an expense report, is that the whole monthly thing or just one claim?', asked)).toBe('guess');
    expect(acknowledgement('Hmm what counts as an expense report, is that the whole monthly thing or just one claim?', { asked })).toBe(EITHER_WAY);
    expect(heardAs('what does approved first time mean, like without them sending it back?', 'How sure are you that a report is approved first time?')).toBe('guess');
    expect(heardAs('What would what look like? The logout thing or the bank account?', 'What would that look like for you?')).toBe('guess');
    // A wish put as a choice, to a question that asks for wishes, is the answer.
    expect(heardAs('Could it show the bank or the card it used?', 'What would make the product more useful to you?')).not.toBe('guess');
    const story: Segment = { id: 's', mode: 'talk', title: 'Story', instruction: 'Walk me through the last expense report you submitted. What was the hardest part?' };
    const turns = await talkThrough(story, ['Hmm what counts as an expense report, is that the whole monthly thing or just one claim?']);
    expect(turns[1]).toBe(asked);
  });

  it('asks the question again, once, when a question of their own came in its place', async () => {
    const segment: Segment = { id: 's', mode: 'talk', title: 'Value', instruction: 'What would make the product more useful to you? Anything else?' };
    const turns = await talkThrough(segment, ['Who decides what gets built?', 'Why does the export take so long?', 'Fine. Faster exports.']);
    expect(turns[1]).toBe('What would make the product more useful to you?');
    expect(turns[2]).not.toBe('What would make the product more useful to you?');
  });

  it('hears "why you ask again?" as already answered, and a question said back as no question', () => {
    for (const again of ['why you ask again?', 'Why are you asking that again?', 'You already asked that.']) expect(heardAs(again, 'What did you use before?'), again).toBe('already');
    expect(heardAs('How did it go? Wonderful. Ten out of ten. I still have a gym membership.', 'How did it go for you?')).toBeNull();
  });

  it('does not ask again for what an answer told in passing: how they usually did it, the last time, the reason', async () => {
    const context = starterScript.segments.find((s) => s.id === 'context') as Segment;
    const vet = await talkThrough(context, ["I'm here to book a vet appointment for our dog. Normally I'd ring the practice at 8am and fight for a slot, which is how I did it last time in March: I was on hold 25 minutes.", 'ok']);
    expect(vet[1]).toBeNull();
    const cancel = 'Oh, just trying to cancel my gym membership. You know, the thing you make deliberately impossible. Fun times.';
    const gym = await talkThrough(context, [cancel, 'Before? Last gym I had to send a recorded-delivery letter. Great system.', 'x']);
    expect(gym.slice(1)).toEqual(['What did you use to cancel your gym membership before?', null]);
    // Not said: still asked.
    const plain = await talkThrough(context, [cancel, 'I sent them a letter by recorded delivery, it was slow.', 'x']);
    expect(plain[2]).toMatch(/the last time/);
    const debrief: Segment = { id: 'd', mode: 'talk', title: 'Debrief', instruction: 'On a scale of 1-5, how confident are you that it will be approved first time? Why? Anything else?' };
    expect((await talkThrough(debrief, ["3, because I'm not sure I picked the right category.", 'no']))[1]).toBe('Anything else?');
    // A bare rating: the script's own "Why?" asks for the reason, with no follow-up before it.
    expect((await talkThrough(debrief, ['3.', 'The category list is long.', 'no']))[1]).toBe('Why?');
  });

  it('names what the task notes were about, not the menu path, the clicking through it, or what they did not have', () => {
    expect(notesHeard(['Account > Membership > Manage. No cancel button. Of course.'])).not.toMatch(/account|course/i);
    expect(notesHeard(['ok so clicking Kids Lessons now. There is a filter for age but it only goes to 12.'])).toBe('Thank you for your notes about Kids Lessons. ');
    expect(notesHeard(["Can't find his IBAN field"])).toBe('Thank you for your notes about the IBAN field. ');
    expect(notesHeard(['erm ok. I dont have a lunch receipt but I have the one from the printer cable.'])).not.toMatch(/lunch receipt/);
  });

  it('follows up on a terse answer without naming how it went or how long it took as a thing', async () => {
    expect(followUp('Fine overall. Like I said the bank account thing was buried, otherwise ok.', 0, '')).not.toMatch(/fine/i);
    expect(followUp('Last Friday. Took ages.', 0, '')).not.toMatch(/ages/);
    const context = starterScript.segments.find((s) => s.id === 'context') as Segment;
    expect((await talkThrough(context, ['Send money to friend']))[1]).toBe('Could you say a bit more about that?');
  });

  it('ends the task on "done!" with how it went, and hears "I literally just told you" in the middle of a message', () => {
    for (const done of ['done! booked it, got a confirmation email', 'All done. It went through.']) expect(endsTask(done), done).toBe(true);
    for (const note of ['done. now the payment page', 'Done! Now on to the next one']) expect(endsTask(note), note).toBe(false);
    expect(heardAs('Are you even reading this? I literally just told you. Letter. Recorded delivery. They still charged me two more months.', 'Could you tell me about the last time?')).toBe('already');
  });

  it('says the task again when asked which one it is, and still does not help with doing it', () => {
    const task = 'Could you show me how you would submit the receipt from your most recent business lunch, thinking aloud as you go?';
    expect(whileWorking('Which receipt do you want me to submit?', { said: task, task })).toBe(`Sorry, that was unclear. ${task}`);
    expect(whileWorking('Which receipt do you want me to submit?', { said: `${task}\nSorry, that was unclear. ${task}`, task })).not.toContain(task);
    expect(whileWorking('Which category should I use?', { said: task, task })).toBe(ON_YOUR_OWN);
  });

  it('reads a task labelled "TASK —" or "Task 2 -", and a task named only in a labelled title', () => {
    const plan = (instruction: string, title = 'Task') => questionPlan({ mode: 'observe', title, instruction }).questions;
    expect(plan('3. TASK — Have them submit the receipt from their most recent business lunch. Type done when finished.')).toEqual(['Could you show me how you would submit the receipt from your most recent business lunch, thinking aloud as you go?']);
    expect(plan('Task 2 - ask them to change their delivery address. Watch whether they find the settings.')).toEqual(['Could you show me how you would change your delivery address, thinking aloud as you go?']);
    expect(plan('Watch whether they find the settings. Do not help.', 'Task: submit a receipt')).toEqual(['Could you show me how you would submit a receipt, thinking aloud as you go?']);
    expect(plan('Watch whether they find the settings. Do not help.', 'Checkout')[0]).toMatch(/^For this part, "Checkout"/);
  });
});

describe('an eighteenth walkthrough: outline numbers, requests with a colon, a word said back with "what"', () => {
  const plan = (mode: 'talk' | 'observe', instruction: string) => questionPlan({ mode, title: 'Part', instruction }).questions;

  it('leaves out an outline\'s numbers ("2.1", "3.1 Task:") and reads "How long subscribed?"', () => {
    expect(plan('talk', '2.1 How do you currently plan your workouts during the week?\n2.2 When did you last skip a planned workout? What happened?')).toEqual([
      'How do you currently plan your workouts during the week?', 'When did you last skip a planned workout?', 'What happened?',
    ]);
    expect(plan('observe', '3.1 Task: ask the participant to build a 3-day plan for next week in the Plan builder. Participant types done when finished.')).toEqual([
      'Could you show me how you would build a 3-day plan for next week in the Plan builder, thinking aloud as you go?',
    ]);
    expect(plan('talk', '- How long subscribed?')).toEqual(['How long have you been subscribed?']);
  });

  it('asks a request whose colon lists what it covers as the request', () => {
    expect(plan('talk', 'Start by asking them to describe how money works in their household: who pays for what, and how they keep track.')).toEqual([
      'Could you describe how money works in your household: who pays for what, and how you keep track?',
    ]);
  });

  it('hears a word of the question said back with "what", and "think that\'s it" at the end of a task', () => {
    expect(heardAs('subscribed to what, the meal boxes?', 'How long have you been subscribed?')).toBe('guess');
    expect(heardAs('sorry I dont understand, use what?', 'What did you use for it before?')).toBe('puzzled');
    expect(heardAs('what happened next with what? I was asking what you meant.', 'You mentioned the meal boxes. What happened next?')).toBe('puzzled');
    for (const done of ["right, think that's it", 'ok that\'s everything', "that's it for now"]) expect(endsTask(done), done).toBe(true);
    // Found the button: not the end of the task.
    expect(endsTask("That's it!")).toBe(false);
  });

  it('hears "I already explained" and "didn\'t you just ask that", puzzlement after a "sorry.", and a rating given with its reason', async () => {
    expect(heardAs('why what? why 4? I already explained', 'Why?')).toBe('already');
    expect(heardAs("didn't you just ask that", 'Why?')).toBe('already');
    expect(heardAs("sorry. I don't understand the question. what is 'took longer'?", 'What, if anything, took longer than you expected?')).toBe('puzzled');
    expect(heardAs("The booking button is greyed out. I don't get it.", 'How did it go?')).not.toBe('puzzled');
    const rating: Segment = { id: 'r', mode: 'talk', title: 'Rating', instruction: '4.1 On a scale of 1-5, how easy was it to build the plan?\n4.2 Why?\n4.3 What would you change first?' };
    expect((await talkThrough(rating, ['4 - quick, but there was no way to mark runs', 'x']))[1]).not.toBe('Why?');
    expect(await talkThrough(rating, ['4', 'It was fast enough for me, I think.', 'x', 'y'])).toContain('Why?');
    expect(notesHeard(["ok I'll make one up, 90 quid. sent."])).not.toMatch(/quid/);
  });

  it('ends a task on "all sorted" or "ok that\'s me", and answers a reading of the task with "either is fine"', () => {
    for (const done of ['all sorted', "ok that's me", "that's as far as I can get, finished"]) expect(endsTask(done), done).toBe(true);
    for (const guess of ["I don't have a housemate, do you mean my husband?", 'which week - the 14th or the 21st?']) expect(whileWorking(guess, { said: '', task: 'Could you split the bill?' }), guess).toBe(EITHER_WAY);
    expect(whileWorking('which week - the 14th or the 21st?', { said: EITHER_WAY, task: 'Could you split the bill?' })).not.toBe(EITHER_WAY);
  });

  it('says a numbered title without its number, and a section name ("3. Task", "4. Rating") not at all', async () => {
    expect(titleForParticipant('2.1 How they book today')).toBe('how you book today');
    for (const title of ['3. Task', '4. Rating']) {
      const asked = await talkThrough({ id: 's', mode: 'talk', title, instruction: 'How easy was it?' }, ['at which point? I am lost']);
      expect(asked[1], title).toBe('Sorry, that was unclear. How easy was it?');
    }
  });

  it('hears a note-short question answered just before it ("Anything confusing?" after "the calendar was the confusing part")', async () => {
    const after: Segment = { id: 'a', mode: 'talk', title: 'After', instruction: '- how was that\n- anything confusing? (esp. the calendar)\n- what would make it more useful?' };
    const asked = await talkThrough(after, ['bit fiddly. the calendar was the confusing part, the two weeks look identical', 'I worked it out in the end.', 'no, just that', 'It was useful overall, but a clearer calendar.']);
    expect(asked.find((q) => q?.includes('Anything confusing?'))).toBe(`${TOUCHED}Anything confusing?`);
    expect(asked.find((q) => q?.includes('more useful'))).toBe('What would make it more useful?');
    // A feature's name said along the way ("there's a plan builder thing") does not answer what they would change in it.
    const change: Segment = { id: 'c', mode: 'talk', title: 'After', instruction: 'What would you change first in the Plan builder?' };
    expect((await talkThrough(change, [], ["clicking around. there's a plan builder thing, made a plan with 3 days"]))[0]).toBe('What would you change first in the Plan builder?');
  });

  it('keeps an amount the task needs, and hears "what else?" at the end of an answer as an answer', () => {
    expect(plan('observe', "Ask them to split last month's electricity bill (£84) 50/50 with one housemate and send the request, thinking aloud as they go.")).toEqual([
      "Could you show me how you would split last month's electricity bill (£84) 50/50 with one housemate and send the request, thinking aloud as you go?",
    ]);
    expect(heardAs('I paid by card, what else?', 'How did you pay?')).not.toBe('puzzled');
    expect(heardAs('paid with what?', 'How did you pay?')).toBe('puzzled');
  });

  it('takes "nothing new" as the end of a question asked as a chance to add', async () => {
    const bg: Segment = { id: 'bg', mode: 'talk', title: 'Background', instruction: '- Ever skipped a week?\n- Who else in the household picks the meals?\n- Anything else?' };
    const asked = await talkThrough(bg, ['yes, twice. And before you ask, my partner picks the meals mostly, I just veto the fish ones', 'just my partner. nothing new']);
    expect(asked[1]).toBe(`${TOUCHED}Who else in the household picks the meals?`);
    expect(asked[2]).toBe('Anything else?');
  });
});

describe('what walkthrough 18 left: "see above", a reason said with "so", a rating the script follows with "Why?"', () => {
  it('hears "see above" and "same reason" as said already', () => {
    for (const already of ['see above', 'as above.', 'same reason', 'same as before']) expect(heardAs(already, 'Why or why not?'), already).toBe('already');
  });

  it('does not ask "Why or why not?" after an answer that gave its reason with "so"', async () => {
    const after: Segment = { id: 'a', mode: 'talk', title: 'After', instruction: 'Would you rather pause or skip a week? Why or why not?\nWhat would you change?' };
    const asked = await talkThrough(after, ["if pause means stopping for ages I'd worry I'd forget to turn it back on. skip is one week at a time so it feels safer", 'a reminder the day before it restarts']);
    expect(asked.slice(0, 2)).toEqual(['Would you rather pause or skip a week?', 'What would you change?']);
    // "so it was" tells what happened, not why.
    expect((await talkThrough(after, ['skip, so it was easy', 'x']))[1]).toBe('Why or why not?');
  });

  it('leaves the reason for a terse rating to the script\'s own "Why?", and takes "a year" as how long', async () => {
    const rating: Segment = { id: 'r', mode: 'talk', title: '4. Rating', instruction: '4.1 On a scale of 1-5, how easy was it to build the plan?\n4.2 Why?' };
    expect((await talkThrough(rating, ['3 I guess']))[1]).toBe('Why?');
    const since: Segment = { id: 's', mode: 'talk', title: 'Background', instruction: '- How long subscribed?\n- Who picks the meals?' };
    expect((await talkThrough(since, ['a year']))[1]).toBe('Who picks the meals?');
  });
});

describe('guide lines walkthrough 18 lost: "Wrap up: ask …", a branch in brackets, "Probe on X if it comes up", "them" for what was mentioned', () => {
  const plan = (instruction: string) => questionPlan({ mode: 'talk', title: 'Part', instruction });

  it('reads a section label before what to do, and leaves the thanks to the closing', () => {
    expect(plan('Wrap up: ask if there is anything else they want to tell us, and thank them.').questions).toEqual(['Is there anything else you want to tell us?']);
    expect(plan('Close: thank them and ask if anything else comes to mind.').questions).toEqual(['Does anything else come to mind?']);
  });

  it('takes "(if they say X, ask …)" and "Probe on X if it comes up" as branches, not words of the question', () => {
    const sheet = plan('Ask what they use to track shared costs (if they say a google sheet, ask who keeps it up to date).');
    expect(sheet.questions).toEqual(['What do you use to track shared costs?']);
    expect(sheet.branches).toEqual([{ when: 'mentions', words: ['google sheet'], question: 'Who keeps it up to date?', after: 0 }]);
    const fair = plan('- How do you split bills today?\n- Probe on fairness if it comes up');
    expect(fair.questions).toEqual(['How do you split bills today?']);
    expect(fair.branches).toEqual([{ when: 'mentions', words: ['fairness'], question: 'Could you tell me about fairness?', after: 0 }]);
  });

  it('reads "them" after "if they mention arguments" as the arguments', () => {
    expect(plan('Ask how they split the bills today. If they mention arguments, ask what usually triggers them.').branches[0].question).toBe('What usually triggers the arguments?');
    const apps = plan('Ask which apps they tried. If they mention other apps, ask them why they left.').branches[0];
    expect(apps).toMatchObject({ words: ['apps'], question: 'Why did you leave?' });
  });
});

describe('a question that takes other people for granted, after "I was living alone"', () => {
  it('is not asked', async () => {
    const bg: Segment = { id: 'b', mode: 'talk', title: 'Background', instruction: '- Why did you sign up?\n- Who else in the household picks the meals?\n- What do you do when away?' };
    expect((await talkThrough(bg, ['instagram, 60% off the first box. I was living alone and sick of takeaways']))[1]).toBe('What do you do when away?');
    expect((await talkThrough(bg, ['instagram ad. I live in Leeds with my partner and two kids, takeaways got expensive']))[1]).toBe('Who else in the household picks the meals?');
    expect((await talkThrough(bg, ["it's just me and my wife, we wanted to cook more"]))[1]).toBe('Who else in the household picks the meals?');
  });
});

describe('"is 5 easy or hard?" to a rating question', () => {
  const asked = 'On a scale of 1-5, how easy was it to build the plan?';
  it('says which end of the scale is which, then asks the rating again', async () => {
    for (const m of ['is 5 easy or hard?', 'what does 1 mean?', 'is higher better?', 'which way round is it?', '1 being the best?']) {
      expect(acknowledgement(m, { asked }), m).toBe('1 means not at all easy and 5 means very easy.');
    }
    expect(acknowledgement('is 10 good?', { asked: 'From 0 to 10, how likely are you to recommend it to a friend?' })).toBe('0 means not at all likely and 10 means very likely.');
    expect(acknowledgement('is 5 high or low?', { asked: 'Rate the setup from 1 to 5.' })).toBe('1 is the lowest and 5 the highest.');
    // A rating is an answer; a question without a scale is not told about one.
    expect(acknowledgement('3 I guess', { asked })).toBeNull();
    expect(acknowledgement('is 5 easy or hard?', { asked: 'How did it go?' })).not.toMatch(/means/);
    const rating: Segment = { id: 'r', mode: 'talk', title: 'Rating', instruction: `${asked}\nWhat would you change first?` };
    expect((await talkThrough(rating, ['1 being the best?', '4'])).slice(0, 2)).toEqual([asked, asked]);
  });
});

describe('closing lines as guides write them, and "have" as the main verb', () => {
  const plan = (instruction: string) => questionPlan({ mode: 'talk', title: 'Part', instruction }).questions;
  it('leaves out a closing section\'s name and asks "Do you have…?"', () => {
    expect(plan("Closing: anything we didn't ask that we should have? OK to follow up by email?")).toEqual(["Anything we didn't ask that we should have?", 'OK to follow up by email?']);
    expect(plan('Wrap-up - anything else? thank + explain next steps (voucher in 5 days)')).toEqual(['Anything else?']);
    expect(plan('Finally ask them if they have any questions for us.')).toEqual(['Do you have any questions for us?']);
    expect(plan('Ask whether they have to pay upfront.')).toEqual(['Do you have to pay upfront?']);
    expect(plan('Ask whether the app has a dark mode.')).toEqual(['Does the app have a dark mode?']);
    // "have" before a participle stays the auxiliary.
    expect(plan('Ask if they have used a spreadsheet before.')).toEqual(['Have you used a spreadsheet before?']);
    expect(plan('Ask whether they have been charged twice.')).toEqual(['Have you been charged twice?']);
  });
});

describe('a nineteenth walkthrough: a terse participant', () => {
  it('asks what they did about trouble rather than for an example of it', () => {
    expect(followUp('the download. never came', 0, 'What, if anything, took longer than you expected?', [], 'Could you say a bit more about that?')).toBe('What did you do then?');
  });

  it('does not press a second time after "dunno" to a follow-up', async () => {
    const context: Segment = { id: 'c', mode: 'talk', title: 'Context', instruction: 'Ask about the last time they had to export the report. Ask what they used before.' };
    const asked = await talkThrough(context, ['last month. fine.', 'dunno. it worked', 'excel']);
    expect(asked[1]).toBe('Could you say a bit more about that?');
    expect(asked[2]).toBe('What did you use before?');
  });
});

describe('a nineteenth walkthrough: going back with what to add in the same message', () => {
  const context: Segment = { id: 'c', mode: 'talk', title: 'Context', instruction: 'Ask what they came to do today. Ask what they used before. Ask about the last time they did it.' };
  it('thanks them and asks the question they were on, rather than going back a question', async () => {
    const message = 'Wait, before that, can I go back to the first question? I also came to check whether the churn number is right, not just export.';
    expect(heardAs(message)).toBe('added');
    expect(acknowledgement(message)).toBe('Thank you for adding that.');
    const asked = await talkThrough(context, ['Fine. I came to export the revenue report.', 'I export the revenue report.', 'A spreadsheet.', message]);
    expect(asked.at(-1)).toBe(asked.at(-2));
    expect(asked.at(-1)).toMatch(/the last time/);
    // Only the request: what they want to add is asked for.
    expect(heardAs('can I go back to the first question?')).toBe('back');
    expect((await talkThrough(context, ['To export the revenue report for the board.', 'A spreadsheet.', 'can I go back to the first question?']))[3]).toBe('What would you like to add?');
    expect(heardAs('Sorry, can I go back to the previous question?')).toBe('back');
  });
});

describe('a nineteenth walkthrough: the starter study with a rambler, a sceptic and someone who gave up', () => {
  const seg = (id: string) => starterScript.segments.find((x) => x.id === id) as Segment;

  it('asks a puzzled participant the question again in plainer words', async () => {
    const asked = await talkThrough(seg('friction'), ['Not good. The button not work, I not receive the file.', 'Sorry, what mean longer? The time?', 'the waiting for the file, I wait maybe one minute and nothing.']);
    expect(asked[2]).toBe('Sorry, that was unclear. This part is about how it went. Which part took more time than you thought it would?');
    expect(asked[3]).toBe('What did you do at that point?');
  });

  it('stays silent to a question to the screen among what they see, and still declines a request for help', () => {
    expect(whileWorking('ok I see revenue grow 12%. but is 12% of what? I not see the euro number.', { said: '' })).toBeNull();
    expect(whileWorking('Is that the total? I only see a percentage on the card.', { said: '' })).toBeNull();
    expect(whileWorking("Where do I click? I can't find it.", { said: '' })).toBe(ON_YOUR_OWN);
    expect(whileWorking('where i click?', { said: '' })).toBe(ON_YOUR_OWN);
  });

  it('ends the task on giving up said in a longer note, or "I\'m stopping this task"', () => {
    for (const done of ['The Checkout page is the same page?? Export does nothing. I give up, I can\'t find any PDF. This is useless.', "I don't know what you want me to do. I'm stopping this task."]) {
      expect(endsTask(done), done).toBe(true);
      expect(givesUp(done), done).toBe(true);
    }
  });

  it('takes "When it broke? I\'d reconnect the Zap…" as an answer that checks what was meant, not a question to pass on', () => {
    expect(acknowledgement("When it broke? I'd reconnect the Zap and re-run it, usually 20 minutes of fiddling.", { asked: 'What did you do then?' })).toBeNull();
    expect(acknowledgement('Can it export to PDF? That would help a lot with the board pack.', { asked: 'What did you do then?' })).not.toBeNull();
  });

  it('hears "Is this being tracked?" as a question about recording', () => {
    expect(acknowledgement('Why do you need to know that? Is this being tracked?')).toContain(NOT_RECORDED);
    expect(acknowledgement('are you tracking my clicks?')).toBe(NOT_RECORDED);
  });

  it('reads a note that asks something for what else it says, and names no "same page"', () => {
    expect(notesHeard(['OK so I see the Monthly revenue card, 12% in October, nice.', 'Clicked export. Hmm, nothing seems to happen? No file in my downloads. Maybe it is emailing it to me?'])).toBe('Thank you for your notes about the export. ');
    expect(notesHeard(['The Checkout page is the same page?? I give up, I can\'t find any PDF.'])).not.toMatch(/same page/);
  });

  it('asks about the report, not "the October report", before and the last time; "for September I used…" tells the last time', async () => {
    const goal = 'I wanted to download the October revenue report as a PDF for our investor update.';
    const asked = await talkThrough(seg('context'), [goal, 'Baremetrics, printed to PDF.']);
    expect(asked[1]).toBe('What did you use to download the revenue report before?');
    expect(asked[2]).toBe('Could you tell me about the last time you had to download the revenue report?');
    expect((await talkThrough(seg('context'), [goal, "Well not October's obviously, but for September I used the old dashboard in Baremetrics and printed it to PDF."]))[2]).toBeNull();
  });

  it('takes "I give up" in the task notes as what they did at that point, and "we can\'t afford it" as no trouble to probe', async () => {
    const notes = ['Looking for a PDF option.', 'Export does nothing. I give up, I can\'t find any PDF.'];
    const asked = await talkThrough(seg('friction'), ['Badly, obviously. I could not get a PDF at all.', 'Everything. I never finished.'], [], notes);
    expect(asked.join('\n')).not.toMatch(/at that point/);
    const ctx = await talkThrough(seg('context'), ['I came to get the revenue report out. We used to do this in Google Sheets, my colleague swears by Looker but we can\'t afford it.']);
    expect(ctx[1]).not.toBe('What did you do then?');
  });
});

describe('a nineteenth walkthrough: a usability test written as moderators write it', () => {
  const plan = (mode: 'talk' | 'observe', instruction: string) => questionPlan({ mode, title: 'Task 1 — find growth', instruction }).questions;

  it('asks a quoted task in its own words, and not the reply kept for "if they ask"', () => {
    expect(plan('observe', 'TASK 1: "Please find how much revenue grew last month, and type the number when you have it."\nDon\'t help them. Note time on task. Success = they report 12%.')).toEqual([
      'Could you find how much revenue grew last month, and type the number when you have it?',
    ]);
    expect(plan('observe', 'TASK 2: "Now export the monthly revenue report so you could send it to a colleague."\nDon\'t help them. If they ask, say: "What would you do if I weren\'t here?" Note time on task + errors. Stop after 3 min.')).toEqual([
      'Could you export the monthly revenue report so you could send it to a colleague?',
    ]);
    expect(plan('observe', 'Don\'t help them. If they ask, say: "What would you do if I weren\'t here?" Have them export the monthly report.')).toEqual([
      'Could you show me how you would export the monthly report, thinking aloud as you go?',
    ]);
  });

  it('reads "Same SEQ question (1–7)" as the Single Ease Question, and asks no "Why?" before a rating', () => {
    expect(plan('talk', 'Same SEQ question (1–7) for task 2.\nWhy?')).toEqual(['On a scale of 1 to 7, where 1 is very difficult and 7 is very easy, how easy or difficult was that task?', 'Why?']);
  });

  it('does not tell a puzzled participant "This part is about task 2 — SEQ"', async () => {
    expect(titleForParticipant('Task 2 — SEQ')).toBeNull();
    const rating: Segment = { id: 'r', mode: 'talk', title: 'Task 2 — SEQ', instruction: 'Same SEQ question (1–7) for task 2.\nWhy?' };
    expect((await talkThrough(rating, ['6', 'Why what?']))[2]).toBe('Sorry, that was unclear. What makes you say that?');
  });

  it('takes a rating of "6" for a rating, not a day', () => {
    expect(followUp('6', 1, 'On a scale of 1 to 7, how easy was that?\nCould you say a bit more about that?')).not.toBe('What happened that day?');
    expect(followUp('last fri, 2pm', 1, 'When was that?\nCould you say a bit more about that?')).toBe('What happened that day?');
  });
});

describe('two short probe questions at the end of a line', () => {
  it('does not throw ("Price ok? trial?")', () => {
    const plan = questionPlan({ mode: 'talk', title: 'Deciding', instruction: 'Deciding: the moment they committed. Price ok? trial?' });
    // Asked as a researcher would say them; the notes as written are kept for validate-script's warning.
    expect(plan.questions).toEqual(['Was the price ok for you?', 'Could you tell me about the trial?']);
    expect(plan.notes).toEqual(['Price ok?', 'Trial?']);
  });

  it('leaves a note it cannot say more fully as written: a name, a cut-off reason', () => {
    expect(questionPlan({ mode: 'talk', title: 'Tools', instruction: 'How did you pick it? Xero?' }).questions).toEqual(['How did you pick it?', 'Xero?']);
    expect(questionPlan({ mode: 'talk', title: 'Deciding', instruction: "Almost didn't buy b/c ...?" }).questions).toEqual(["Almost didn't buy because?"]);
  });
});

describe('a nineteenth walkthrough: a pasted Google-doc guide and a switch interview in shorthand', () => {
  const plan = (instruction: string) => questionPlan({ mode: 'talk', title: 'Part', instruction });

  it('reads "◦" bullets, "◦ Probe:" and "(if they mention X) ask …" under a topic line', () => {
    const warmup = plan("WARM-UP (3 min)\n• Role & team\n   ◦ What's your role? How big is your team?\n   ◦ Probe: who else looks at the numbers you pull?\n• Tools today\n   ◦ Which tools do they use for reporting today (besides Acme)?\n   ◦ (if they mention spreadsheets) ask how often they copy data across by hand");
    expect(warmup.questions).toEqual(["What's your role?", 'How big is your team?', 'Who else looks at the numbers you pull?', 'Which tools do you use for reporting today?']);
    expect(warmup.branches).toEqual([{ when: 'mentions', words: ['spreadsheets'], question: 'How often do you copy data across by hand?', after: 3 }]);
  });

  it('leaves out a switch interview\'s phase names and spells out its shorthand', () => {
    expect(plan("1st thought — when did they 1st realise the old way (sheets / other tool) wasn't cutting it? What was going on that day, where were they. Who else involved.").questions).toEqual([
      "When did you first realise the old way wasn't cutting it?", 'What was going on that day, and where were you?', 'Who else was involved?',
    ]);
    expect(plan('Passive looking: started noticing alternatives?').questions).toEqual(['Did you start noticing alternatives?']);
  });
});

describe('any mix of guide fragments', () => {
  it('never makes questionPlan throw', () => {
    const pieces = ['Price ok?', 'trial?', 'Who signed off.', '(if yes) why?', '- Probe:', '◦ card? cash?', 'TASK 1: "Please find it."', 'If they ask, say: "Go on?"', '1st thought —', 'Same SEQ question (1–7).', 'Why?', 'w/ Acme', '→', ':', '""', '(', ')', '?'];
    let n = 0;
    for (const a of pieces) for (const b of pieces) for (const c of pieces) {
      for (const mode of ['talk', 'observe'] as const) {
        expect(() => questionPlan({ mode, title: 'T', instruction: `${a} ${b}\n${c}` })).not.toThrow();
        n++;
      }
    }
    expect(n).toBe(pieces.length ** 3 * 2);
  });
});

describe('follow-ups walkthrough 19 found odd', () => {
  it('names no season or workplace back, and meets a reading of the question with "Yes, go with that." before the question', async () => {
    for (const a of ['no specific day. at work i guess', 'last spring', 'from home mostly']) expect(followUp(a, 0, 'What was going on that day?'), a).toBe('Could you say a bit more about that?');
    expect(acknowledgement('Sorry, passive looking? Do you mean did I start looking at other tools?')).toBe('Yes, go with that.');
  });
});

describe('"said already" as walkthrough 19\'s participants put it', () => {
  it('hears "Also already said.", "Third time.", "I told you, …" and "as I wrote above"', () => {
    for (const m of ['Wei. Also already said.', 'NetSuite. Third time.', 'I told you, it was month-end close, I was at my desk at 9pm.', 'as I wrote above']) expect(heardAs(m), m).toBe('already');
    expect(heardAs('The third time it crashed I rang support.')).not.toBe('already');
    expect(heardAs('I said there was no trial.')).toBe('already');
    expect(heardAs('I said to my boss that we should switch and he agreed, so we did.')).not.toBe('already');
  });
});

describe('a rating told with its reason, then probed', () => {
  it('is not asked "Why?" after the probe, and Ben is named as Ben', async () => {
    const rating: Segment = { id: 'r', mode: 'talk', title: 'Task 1 — SEQ', instruction: '"On a scale of 1 to 7, where 1 is very difficult and 7 is very easy, how easy or difficult was that task?"\nWhy?' };
    const asked = await talkThrough(rating, ["4, because I didn't know what growth you meant and nobody would help me.", 'I read the whole page slowly until I saw the 12 percent.']);
    expect(asked.slice(1)).not.toContain('Why?');
    expect(followUp('Ben, and our investor recommended Acme too.', 0, 'Who did you ask for recommendations?')).toBe('You mentioned Ben. What happened next?');
  });
});

describe('a screening question', () => {
  it('gets no follow-up when the notes say it is one', async () => {
    const background: Segment = { id: 'b', mode: 'talk', title: 'Background', instruction: 'Ask how often they look at revenue numbers in Acme (daily / weekly / monthly / rarely).', conductor_context: "Screening check only. If 'never', continue anyway but flag in notes." };
    expect(await talkThrough(background, ['Weekly, every Monday morning.'])).toEqual(['How often do you look at revenue numbers in Acme?', null]);
    // Nor does a how-often answered with one.
    expect(await talkThrough({ ...background, conductor_context: undefined }, ['Weekly, every Monday morning.'])).toEqual(['How often do you look at revenue numbers in Acme?', null]);
  });
});

describe('"How big is your team?" after the size was told', () => {
  it('is not asked', async () => {
    const role: Segment = { id: 'r', mode: 'talk', title: 'Warm-up', instruction: "What's your role? How big is your team?\nWhich tools do you use?" };
    expect((await talkThrough(role, ["I'm head of marketing at a small SaaS company, team of 3 marketers, and the founders look at the numbers."]))[1]).toBe('Which tools do you use?');
    expect((await talkThrough(role, ["Um, I'm a finance analyst. Finance team is four of us."]))[1]).toBe('Which tools do you use?');
    expect((await talkThrough(role, ["I'm a finance analyst at a logistics company, about 200 people."]))[1]).toBe('How big is your team?');
  });
});

describe('a person named to "Who…?"', () => {
  it('is the answer, said beside a question about the interview, and gets no follow-up', async () => {
    const deciding: Segment = { id: 'd', mode: 'talk', title: 'Deciding', instruction: 'Who signed off?\nWhat almost stopped you buying?' };
    expect(heardAs('Jordan. Are you even reading my answers?', 'Who signed off?')).toBe('question');
    expect((await talkThrough(deciding, ['Jordan. Are you even reading my answers?']))[1]).toBe('What almost stopped you buying?');
    expect((await talkThrough(deciding, ['just my boss, Kim']))[1]).toBe('What almost stopped you buying?');
    expect(heardAs('Sorry, who are you?')).toBe('meta');
  });
});

describe('probes a walk-through already answered ("What was it for?", "Who asked for it?")', () => {
  it('are not asked after "Maria asked for it for the board deck"', async () => {
    const workflow: Segment = { id: 'w', mode: 'talk', title: 'Reporting workflow', instruction: '- Walk me through the last report you built in Acme\n    - Probe: what was it for? who asked for it?\n    - Probe: where did you get stuck, if anywhere?' };
    const told = 'Last Tuesday, the October revenue by region. I filtered the revenue dashboard by region, exported it, and pasted it into our Excel model. Maria asked for it for the board deck.';
    expect((await talkThrough(workflow, [told]))[1]).toBe('Where did you get stuck, if anywhere?');
    // Not said: asked.
    expect((await talkThrough(workflow, ['I filtered the revenue dashboard by region, exported it, and pasted it into our Excel model.']))[1]).toBe('What was it for?');
    expect(heardAs('Maria. I said that too.')).toBe('already');
  });
});

describe('a twentieth walkthrough: the starter study misread and a usability task given up', () => {
  it('hears "not sure what you mean", an answer with a guess after it, "do it right now, here?" and "I give up on this one"', () => {
    expect(heardAs('not sure what you mean, more useful how?', 'What would make the product more useful to you?')).toBe('puzzled');
    expect(heardAs('last time? that was like 2 years ago, I emailed support. do you mean how I did it today?', 'Could you tell me about the last time you had to update your billing address?')).toBeNull();
    expect(whileWorking('wait, do you mean do it right now, here?', { said: '', task: 'Could you go ahead and update your billing address?' })).toBe(HERE_AND_NOW);
    expect(endsTask('Tried again. Nothing downloads. I really can not find any way to do it, I give up on this one.')).toBe(true);
    expect(endsTask('I give up on the search, going through the menu instead')).toBe(false);
  });
});

describe('a twentieth walkthrough: a goal with its purpose, a story that says what they did, giving up on this', () => {
  const seg = (id: string) => starterScript.segments.find((x) => x.id === id) as Segment;
  it('asks about the report without "to send", does not ask what they did after "then gave up and rebuilt…", and ends the task', async () => {
    const asked = await talkThrough(seg('context'), ['I came to export our March sales report to send to my manager', "before this we used Stripe's dashboard, it had a one-click CSV export", 'Last Tuesday. I clicked Export on the sales page and nothing happened, no file, no error. Tried three times in Chrome, then gave up and rebuilt the numbers by hand from Stripe.']);
    expect(asked[1]).toBe('What did you use to export your sales report before?');
    expect(asked[2]).toBe('Could you tell me about the last time you had to export your sales report?');
    expect(asked[3]).toBeNull();
    expect(endsTask("OK I'm giving up on this, it's not going to work and I've wasted enough time on it already today.")).toBe(true);
  });
});

describe('a twentieth walkthrough: a pasted guide and a usability test again', () => {
  it('asks about "your work as a sales ops analyst", takes "just me and one other analyst" as the size, and asks for the last report after a job description', async () => {
    expect(followUp("I'm a sales ops analyst", 0, "What's your role?")).toBe('Could you tell me more about your work as a sales ops analyst?');
    const warmup: Segment = { id: 'w', mode: 'talk', title: 'Warm-up', instruction: "What's your role? How big is your team?\nWho else looks at the numbers you pull?" };
    expect((await talkThrough(warmup, ['I build the weekly pipeline and forecast reports for our VP of Sales', 'just me and one other analyst']))[2]).toBe('Who else looks at the numbers you pull?');
    const workflow: Segment = { id: 'f', mode: 'talk', title: 'Reporting workflow', instruction: '- Walk me through the last report you built in Acme\n    - Probe: what was it for? who asked for it?' };
    const asked = await talkThrough(workflow, ['Monday I pulled last week closed-won from Acme, pasted it into the forecast spreadsheet, fixed the stage names by hand, then built the charts. Took about 3 hours.', 'For the Monday pipeline meeting. The VP asked for it.'], ['I build the weekly pipeline and forecast reports for our VP of Sales']);
    expect(asked[0]).toBe('Could you walk me through the last report you built in Acme?');
    expect(asked[2]).toBeNull();
  });

  it('ends the task on "I will stop" and "I am done with this task" said with more', () => {
    for (const done of ["I've looked for a few minutes now and I can't find it, so I'll stop here and move on.", 'Fine, I will stop. I cannot find any export that works, so I am done with this task.']) expect(endsTask(done), done).toBe(true);
  });
});

describe('a concept read aloud before the questions about it (walkthrough 20, G4)', () => {
  const concept = 'Imagine Acme Autopilot: every Monday morning it builds your weekly revenue report on its own and posts it to your team\'s Slack channel.';
  it('is said with the question it leads to', () => {
    for (const lead of ['Read aloud:', 'Say:']) {
      const plan = questionPlan({ mode: 'talk', title: 'Concept', instruction: `PART 2: CONCEPT (4 min)\n${lead} "${concept}"\n- What are your first impressions?\n- On a scale of 1 to 5, how likely would you be to use this? Why?` });
      expect(plan.questions[0], lead).toBe(`${concept} What are your first impressions?`);
      expect(plan.questions.slice(1)).toEqual(['On a scale of 1 to 5, how likely would you be to use this?', 'Why?']);
    }
    // A quoted question after "Say:" is the question itself.
    expect(questionPlan({ mode: 'talk', title: 'T', instruction: 'Say: "What did you do next?"\n- Anything else?' }).questions).toEqual(['What did you do next?', 'Anything else?']);
  });
});

describe('a twentieth walkthrough: branches on a mention, counts and sign-off already told, phase titles', () => {
  it('asks the spreadsheet branch after "Google Sheets" or an earlier answer of the part names spreadsheets', async () => {
    const tools: Segment = { id: 't', mode: 'talk', title: 'Warm-up', instruction: 'How big is your team?\nWhich tools do you use for reporting today?\n   (if they mention spreadsheets) ask how often they copy data across by hand\nWho else looks at the numbers?' };
    expect((await talkThrough(tools, ['Four of us in finance.', 'Acme, and everything ends up in Google Sheets.']))[2]).toBe('How often do you copy data across by hand?');
    expect((await talkThrough(tools, ['Four of us, and we live in Excel spreadsheets honestly.', 'Acme and Salesforce reports.']))[2]).toBe('How often do you copy data across by hand?');
    expect((await talkThrough(tools, ['Four of us in finance.', 'We use Acme for dashboards and Salesforce reports for the pipeline numbers.']))[2]).toBe('Who else looks at the numbers?');
    // A line with no mark before the next is a sentence of its own: the branch is not run into the next question.
    expect(questionPlan(tools).branches[0].question).toBe('How often do you copy data across by hand?');
  });

  it('does not ask how many seats after "about 25 seats", nor who on the team signs off after "just me"', async () => {
    const spend: Segment = { id: 's', mode: 'talk', title: 'Spend', instruction: 'What tools do you pay for?\nHow many seats do you pay for?\nWho on your team would have to sign off on it?\nWhat would change your mind?' };
    const asked = await talkThrough(spend, ['We pay for Looker, about 25 seats, and it is just me who decides. I own the company.']);
    expect(asked[1]).toBe('What would change your mind?');
    expect(titleForParticipant('Passive looking')).toBeNull();
    expect(endsTask("OK, that's as far as I can get — done with the task.")).toBe(true);
  });
});

describe('a twentieth walkthrough: rates, "what old way?", and what did not happen', () => {
  it('asks "How many hours a week do you…", hears "what old way?" as puzzlement, and names no "trial" after "no trial"', () => {
    expect(questionPlan({ mode: 'talk', title: 'T', instruction: 'Ask how many hours a week they spend on it.' }).questions).toEqual(['How many hours a week do you spend on it?']);
    expect(heardAs('what old way?', "When did you first realise the old way wasn't cutting it?")).toBe('puzzled');
    expect(heardAs('what old way?', 'How did it go?')).not.toBe('puzzled');
    expect(followUp('trial? no trial, just paid', 0, 'Did you do a trial first?')).not.toMatch(/trial/);
  });
});

describe('something added to an earlier answer inside this one', () => {
  it('is thanked before the interview goes on', () => {
    expect(acknowledgement('The CMO asked. Oh and going back to tools — I forgot, we also use Looker Studio for dashboards.')).toBe('Thank you for adding that.');
    expect(acknowledgement('We went back to the old tool because the export failed.')).toBeNull();
  });
});

describe('"Using it how vs expected?" and "Export top right" (walkthrough 20)', () => {
  it('is a note-like question, and the recap names the export, not its corner', () => {
    expect(readsAsNote('Using it how vs expected?')).toBe(true);
    expect(readsAsNote('Thinking about last week, how did it go?')).toBe(false);
    expect(notesHeard(['Clicking Export top right. Nothing happened. Hmm.'])).toBe('Thank you for your notes about the export. ');
  });
});

describe('a topic with a dash and a list of what to cover (walkthrough 20, G2)', () => {
  it('asks about the topic and the list, keeping "first" before a noun', () => {
    expect(questionPlan({ mode: 'talk', title: 'Consuming', instruction: "Consuming: 1st wk w/ Acme — 1st thing they did, 1st 'aha', 1st disappointment." }).questions).toEqual([
      "Could you tell me about your first week with Acme: first thing you did, first 'aha', first disappointment?",
    ]);
    expect(questionPlan({ mode: 'talk', title: 'T', instruction: 'Onboarding — the emails, the setup call, the first invoice.' }).questions).toEqual(['Could you tell me about onboarding: the emails, the setup call and the first invoice?']);
  });
});

describe('a pricing interview (walkthrough 20, G4)', () => {
  it('does not ask who approves a budget of zero or who signs off after "I own the company", nor about "one user"', async () => {
    const spend: Segment = { id: 's', mode: 'talk', title: 'Spend', instruction: 'Roughly how much does your team spend per month on reporting tools?\n   Probe: who approves that budget?\nWhat else do you use?' };
    expect((await talkThrough(spend, ['Zero, basically. The sheet is free. It takes us about 3 hours a week though.']))[1]).toBe('What else do you use?');
    const wtp: Segment = { id: 'w', mode: 'talk', title: 'Pricing', instruction: 'Would you pay $15 per user per month for Autopilot?\nWho on your team would have to sign off on it?' };
    const asked = await talkThrough(wtp, ['Yes, probably, for one user that is nothing.', 'I own the company, so nobody.'], ['There is no budget, I own the company.']);
    expect(asked[1]).not.toMatch(/one user/);
    expect(asked.slice(1)).not.toContain('Who on your team would have to sign off on it?');
  });
});

describe('a twenty-first walkthrough: a diary debrief, an admin outline with sub-letters, chat shorthand', () => {
  const plan = (mode: 'talk' | 'observe', instruction: string) => questionPlan({ mode, title: 'Part', instruction }).questions;

  it('reads "1a." outline labels, "Close with:", "[probe: …?]" and "stood out most to them"', () => {
    expect(plan('talk', '1. Setup\n1a. What was the first thing you did after creating the workspace?\n1b. Which settings did you change on day one, and why?\nNote: don\'t mention SSO unless they bring it up.')).toEqual([
      'What was the first thing you did after creating the workspace?', 'Which settings did you change on day one, and why?',
    ]);
    expect(plan('observe', '2. Task: invite a teammate\n2a. Ask them to invite one teammate to the workspace from the admin console, thinking aloud.\nNote: time the task.')).toEqual([
      'Could you show me how you would invite one teammate to the workspace from the admin console, thinking aloud as you go?',
    ]);
    expect(plan('talk', "Close with: anything you'd want us to know before next week's diary?")).toEqual(["Anything you'd want us to know before next week's diary?"]);
    expect(plan('talk', 'Ask them to summarise the week. [probe: which days did they skip an entry, and why?] [note: keep it light]')).toEqual(['Could you summarize the week?', 'Which days did you skip an entry, and why?']);
    expect(plan('talk', 'Ask them to pick the entry that stood out most to them, good or bad.')).toEqual(['Could you pick the entry that stood out most to you, good or bad?']);
  });

  it('hears "idk. skip" and "no i said skip lol" as a skip, and reads "the tiers r confusing"', () => {
    for (const m of ['idk. skip', 'no i said skip lol', 'Skip this one please']) expect(heardAs(m), m).toBe('skip');
    expect(heardAs('I had to skip the tutorial')).not.toBe('skip');
    expect(plain('the tiers r kinda confusing')).toBe('the tiers are kinda confusing');
    expect(ANYTHING_MORE.test("Anything you'd want us to know before next week's diary?")).toBe(true);
  });
});

describe('what the twenty-first walkthrough left open', () => {
  it('asks a card sort with its list intact, thinking aloud before it', () => {
    const sort: Segment = { id: 's', mode: 'observe', title: 'Sort the features', instruction: "Ask them to sort these five features by importance: offline mode, calendar sync, shared lists, recurring tasks, dark mode. Let them think aloud; don't explain the features unless asked." };
    expect(questionPlan(sort).questions).toEqual(['Could you show me, thinking aloud as you go, how you would sort these five features by importance: offline mode, calendar sync, shared lists, recurring tasks and dark mode?']);
    // A list that already has its "and", and a task with no list, as before.
    expect(questionPlan({ ...sort, instruction: 'Ask them to rank these: price, speed, and support.' }).questions).toEqual(['Could you show me, thinking aloud as you go, how you would rank these: price, speed, and support?']);
    expect(questionPlan({ ...sort, instruction: 'Ask them to pay an invoice.' }).questions).toEqual(['Could you show me how you would pay an invoice, thinking aloud as you go?']);
  });

  it('puts "put", "set" and "read" in the past when the part asks about the past, and in the present for a habit', () => {
    const plan = (instruction: string) => questionPlan({ mode: 'talk', title: 'Top and bottom', instruction }).questions;
    expect(plan('Ask why they put their top one first. Then ask why the bottom one ended up last.')).toEqual(['Why did you put your top one first?', 'Why did the bottom one end up last?']);
    expect(plan('Ask whether they read the email we sent. Ask what they did next.')).toEqual(['Did you read the email we sent?', 'What did you do next?']);
    expect(plan('Ask where they usually put their receipts. Ask what they did last year.')).toEqual(['Where do you usually put your receipts?', 'What did you do last year?']);
    expect(plan('Ask how they set the budget.')).toEqual(['How do you set the budget?']);
  });

  it('does not ask about "that day" after the participant said none stood out', async () => {
    const pick: Segment = { id: 'p', mode: 'talk', title: 'Pick', instruction: 'Ask them to pick the entry that stood out most to them, good or bad. Ask them to walk you through what happened that day.' };
    expect(await talkThrough(pick, ['none really stood out tbh', 'no, nothing'])).toEqual(['Could you pick the entry that stood out most to you, good or bad?', 'Could you say a bit more about that?', null]);
    // A day told after the "none" is walked through.
    expect((await talkThrough(pick, ['none really stood out tbh', 'well monday the chicken was still frozen when I got home']))[2]).toBe('Could you walk me through what happened that day?');
  });

  it('asks again, more plainly, when "What did you come to do today?" gets only "it was good"', async () => {
    const context = starterScript.segments[1] as Segment;
    expect(await talkThrough(context, ['it was good', 'checking my invoices', 'excel', 'yesterday'])).toEqual([
      'What did you come to do today?',
      'And what were you hoping to get done here today?',
      'What did you use for it before?',
      'Could you tell me about the last time you did it?',
      'What happened that day?',
    ]);
    // A judgement is an answer to a question that asks for one.
    expect((await talkThrough(starterScript.segments[3] as Segment, ['it was good']))[1]).not.toMatch(/^And /);
  });
});

describe('a twenty-second walkthrough: six starter-study participants (privacy-wary, front-loading, dictating, a team lead)', () => {
  const whyWeAsk = WHY_WE_ASK;
  it('answers whether it is anonymous, alone, beside an answer, asked again, and never as a choice of readings', () => {
    expect(heardAs('Will this be linked to my email or my account?', 'What did you come to do today?')).toBe('meta');
    expect(acknowledgement('Only this: is what I wrote tied to my name or account?', { asked: 'Is there anything else you would like to tell us?' })).toBe(ANONYMITY);
    expect(acknowledgement('Are my answers anonymous?', { named: true })).toBe(ANONYMITY_NAMED);
    // Why first, then whether it is anonymous, in the order asked.
    expect(acknowledgement('Why do you need to know that? Is this anonymous?', { asked: 'What did you come to do today?' })).toBe(`${whyWeAsk} ${ANONYMITY}`);
    // Beside an answer, the question about the interview is still answered.
    expect(acknowledgement('You did not answer whether it is anonymous. Anyway, I came to look at the revenue numbers.', { asked: 'What did you come to do today?' })).toBe(ANONYMITY);
    // Asked again: answered again, in other words.
    const again = acknowledgement('Nothing, it is new. Again: are my answers anonymous or not?', { said: ANONYMITY });
    expect(again).toMatch(/only the team that makes the product sees your answers/);
    expect(again).not.toBe(ANONYMITY);
    // Said of something else, it is an answer.
    expect(acknowledgement('I posted anonymously on the forum about it.', { asked: 'What did you use for it before?' })).toBeNull();
  });

  it('says why in other words when asked why a second time, even inside an answer', () => {
    expect(acknowledgement('It was ok. Why do you need to know how it went, you can see my clicks anyway.', { said: whyWeAsk })).toBe(WHY_IT_HELPS);
    expect(acknowledgement('Nothing took longer. You still have not told me why any of this is needed.', { said: whyWeAsk })).toBe(WHY_IT_HELPS);
  });

  it('hears "No, nothing else" after a complaint as the answer, and "Well, one: …" or "Oh, and …" after a no as something added', () => {
    expect(addsNothing('That makes no sense. No, nothing else.')).toBe(true);
    expect(addsNothing('No. Well, one: I would pay 2x the current plan if exports matched Airtable.')).toBe(false);
    expect(addsNothing('No, that is all. Oh, and when I said I would recommend it, that was about the charts.')).toBe(false);
  });

  it('leaves fillers out of what it names back from the notes', () => {
    expect(notesHeard(['ok so i clicked export report and um nothing really happened, theres no like message'])).toBe('Thank you for your notes about the export report. ');
    expect(notesHeard(['so basically yeah i am like scrolling and um the thing is there'])).not.toMatch(/\b(?:like|um)\.? $/);
  });

  it('hears "i kind of just said it", and says "you did" in other words each time', () => {
    expect(heardAs('i mean i kind of just said it didnt really work out um it took half an hour when it should take two minutes')).toBe('already');
    const first = acknowledgement('I already said that.', {});
    expect(first).toBe(ALREADY_SAID);
    const second = acknowledgement('Already said. The filtering.', { said: first! });
    expect(second).not.toBe(ALREADY_SAID);
    expect(acknowledgement('I already told you.', { said: `${first} ${second}` })).not.toBe(second);
  });

  it('does not ask again what a front-loaded first answer told, once the participant says so', async () => {
    const story = "Ok so the whole story: I came to export last month's revenue by region for our board deck. Before this we used Google Sheets plus a Stripe export. The problem is the export gives no feedback and I cannot choose a date range, so my workaround is to export everything and filter in Sheets, which takes about 20 minutes. Last time was Oct 2 and it was the same.";
    // The workaround's cost is told: no "How did that work out for you?".
    expect(await talkThrough(starterScript.segments[1] as Segment, [story])).toEqual(['What did you come to do today?', null]);
    const friction = starterScript.segments[3] as Segment;
    expect(await talkThrough(friction, ['I already told you. No feedback, no date range.'], [story])).toEqual(['How did it go for you?', null]);
    // Without the complaint, the questions are asked as written.
    expect(await talkThrough(friction, ['No feedback, no date range.', 'The export just spins and nothing arrives.'], [story])).toContainEqual(expect.stringMatching(/took longer than you expected\?$/));
  });
});

describe('a twenty-second walkthrough: a Notion export, a churn exit interview, an onboarding test', () => {
  const plan = (instruction: string, mode = 'talk') => questionPlan({ mode, title: 'Part', instruction });

  it('reads a guide pasted from Notion: headings, checkboxes, bold "Ask:" labels and emoji never reach the participant', () => {
    expect(plan("## Warm-up (5 min)\n- [ ] Ask about their role and how long they've been at the company\n- [ ] **Ask:** How often do you submit expenses? (weekly / monthly / \"whenever finance chases me\" 😅)\n\nNotes for moderator: keep it casual").questions).toEqual([
      'Could you tell me about your role?',
      'How long have you been at the company?',
      'How often do you submit expenses?',
    ]);
    // "Ask:" before a request that is not quoted: the request is asked, first; "Ask about what…" is the question itself.
    const last = plan('## Last expense report (8 min) 🧾\n**Ask:** Walk me through the last time you submitted an expense report.\n- [ ] Where were the receipts? (paper, email, photos)\n- [ ] Ask about what was the most annoying part\n- [ ] If they mention approvals → probe on who approves and how long it takes\n[timebox: 8 min — move on even if mid-story]');
    expect(last.questions).toEqual(['Could you walk me through the last time you submitted an expense report?', 'Where were the receipts?', 'What was the most annoying part?']);
    expect(last.branches).toEqual([{ after: 2, when: 'mentions', words: ['approvals'], question: 'Who approves, and how long does it take?' }]);
    expect(plan('## Wrap-up (2 min)\n- [ ] **Ask:** If you could wave a magic wand ✨ and change one thing about expenses, what would it be?\n\n> Notes for moderator: thank them & mention the gift card 🎁').questions).toEqual([
      'If you could wave a magic wand and change one thing about expenses, what would it be?',
    ]);
    // A heading that asks something is a question.
    expect(plan('## What did you try first?').questions).toEqual(['What did you try first?']);
  });

  it('makes a branch of "If price comes up, dig into …" and of a score ("If 3 or lower → ask …")', () => {
    expect(plan('Are you switching to another tool, or just stopping? If price comes up, dig into what they compared us with. Which features did you actually use day to day?').branches).toEqual([
      { after: 0, when: 'mentions', words: ['price'], question: 'What did you compare us with?' },
    ]);
    const low = { after: 0, when: 'at most' as const, words: ['3'], question: 'Q' };
    expect(['2', 'a 3 I guess', 'three', 'Two, honestly'].every((a) => branchApplies(low, a))).toBe(true);
    expect(['4', 'five', 'fine'].some((a) => branchApplies(low, a))).toBe(false);
    expect(plan('How easy was it, from 1 to 7? If below 4, ask what got in the way.').branches).toEqual([{ after: 0, when: 'at most', words: ['3'], question: 'What got in the way?' }]);
    expect(plan('How likely are you to recommend us, from 0 to 10? If they give 9 or higher, ask what they would tell a friend.').branches[0]).toMatchObject({ when: 'at least', words: ['9'] });
  });

  it('keeps what the ends of a scale mean, and drops labels before a question', () => {
    expect(plan('Post-task rating: On a scale of 1-5, how easy was that? (1 = very difficult, 5 = very easy). Ask why they gave that number.').questions).toEqual([
      'On a scale of 1-5, where 1 is very difficult and 5 is very easy, how easy was that?',
      'Why did you give that number?',
    ]);
    expect(plan('How satisfied are you? (1 = not at all, 10 = completely)').questions).toEqual(['How satisfied are you, where 1 is not at all and 10 is completely?']);
    expect(plan('Debrief:\n- Overall, what was the hardest part of getting started?\n- What did you expect to see that wasn\'t there?').questions).toEqual([
      'Overall, what was the hardest part of getting started?',
      "What did you expect to see that wasn't there?",
    ]);
  });

  it('asks a lettered task and a quoted task with its scenario as a participant reads them', () => {
    expect(plan('Task B: add a due date to a task and assign it to the colleague you invited.\nSuccess = uses the date picker in the task panel.', 'observe').questions).toEqual([
      'Could you show me how you would add a due date to a task and assign it to the colleague you invited, thinking aloud as you go?',
    ]);
    expect(plan('Task A: set up your first project.\nSay: "Imagine you\'ve just signed up. Please create a project called Launch Plan and invite a colleague."\nSuccess = they find the Invite button without help.', 'observe').questions).toEqual([
      "Imagine you've just signed up. Could you create a project called Launch Plan and invite a colleague?",
    ]);
  });

  it('asks "Same rating q for Task B" as the earlier rating question', () => {
    const segments = withEarlierQuestions([
      { id: 'a', mode: 'talk', title: 'A', instruction: 'On a scale of 1-5, how easy was that? Ask why.' },
      { id: 't', mode: 'observe', title: 'Task B', instruction: 'Task B: add a due date.' },
      { id: 'b', mode: 'talk', title: 'B', instruction: 'Same rating q for Task B (1-5). If 3 or lower → ask what tripped them up.' },
    ]);
    expect(questionPlan(segments[2]).questions).toEqual(['On a scale of 1-5, how easy was that?']);
    // No earlier rating: left as written.
    expect(withEarlierQuestions([{ id: 'b', mode: 'talk', title: 'B', instruction: 'Same question as above.' }])[0].instruction).toBe('Same question as above.');
  });

  it('takes a no as the answer where the guide says so, and does not ask why again after a reason', async () => {
    const stay: Segment = { id: 's', mode: 'talk', title: 'Stay', instruction: 'What would have made you stay? Be honest, we can take it! If they say "nothing", thank them and move on — no save offers here.' };
    expect(await talkThrough(stay, ['nothing really'])).toEqual(['What would have made you stay?', null]);
    const rate: Segment = { id: 'r', mode: 'talk', title: 'Rate', instruction: 'On a scale of 1-5, how easy was that? Ask why they gave that number.' };
    // A bare number: the reason is asked at once, not "Could you say a bit more about that?" first.
    expect(await talkThrough(rate, ['4'])).toEqual(['On a scale of 1-5, how easy was that?', 'Why did you give that number?']);
    const confident: Segment = { id: 'c', mode: 'talk', title: 'Confident', instruction: 'Would you feel confident setting this up for your real team? Why / why not?' };
    expect(await talkThrough(confident, ["Mostly yes. I'd want to check permissions first though."])).toEqual(['Would you feel confident setting this up for your real team?', null]);
    expect((await talkThrough(confident, ['Yes.']))[1]).toMatch(/^(?:Why or why not\?|Could you say a bit more about that\?)$/);
  });

  it('tells which end of the scale is which when asked after a follow-up to the rating', () => {
    const rating = 'On a scale of 1-5, how easy was that?';
    expect(acknowledgement('is 1 easy or hard? I assumed 1 was easy. so actually I mean 4 I guess, it was hard', { asked: 'Could you say a bit more about that?', rating })).toBe('1 means not at all easy and 5 means very easy.');
  });
});

describe('what else the twenty-second walkthrough heard', () => {
  it('thanks a participant who puts a misread answer right, and goes on from the right question', async () => {
    const context = starterScript.segments[1] as Segment;
    const fixed = 'wait no, sorry, I misread that. I meant: I came to check the October revenue numbers and export the report';
    expect(heardAs(fixed)).toBe('added');
    expect(acknowledgement(fixed, {})).toBe(CLARIFIED);
    // Put right in answer to the next question: that question again.
    expect(await talkThrough(context, ['I use it mostly on my laptop, sometimes on my phone.', fixed])).toEqual(['What did you come to do today?', 'What did you use for it before?', 'What did you use for it before?']);
    // Put right in answer to a follow-up: the answer to the question it followed, and on.
    const friction = starterScript.segments[3] as Segment;
    const asked = await talkThrough(friction, ['It was fine I guess, did not see any file appear.', 'The export never finished.', 'Yes I would recommend it to my colleagues probably.', 'wait no, sorry, I misread the question again. waiting for the export took longest']);
    // "did not see any file": no "You mentioned the file".
    expect(asked.slice(0, 4)).toEqual(['How did it go for you?', 'Could you say a bit more about that?', 'Apart from what you mentioned, what, if anything, took longer than you expected?', 'Could you tell me more about your colleagues?']);
    expect(asked[4]).toBe('What did you do at that point?');
    expect(heardAs('I meant the other report, not this one.')).toBeNull();
  });

  it('answers where, whether and hello during a task, and a step given up; thinking aloud still gets nothing', () => {
    expect(whileWorking('wait, do I do this here or on the page behind? where am I supposed to create it?')).toBe(ON_THE_PAGE);
    expect(whileWorking("hmm, I don't see a date field anywhere. Is it ok if I use the calendar view instead?")).toBe(ALLOWED);
    expect(whileWorking('hello?')).toBe(STILL_HERE);
    expect(whileWorking('hello?', { said: STILL_HERE })).toBeNull();
    expect(whileWorking("made the project. but I can't find any invite button. giving up on that part, sorry")).toBe(GAVE_UP);
    expect(whileWorking('ok clicking export now')).toBeNull();
  });

  it('after a real answer, puzzlement at a follow-up moves on rather than asking the answered question again', async () => {
    const alt: Segment = { id: 'a', mode: 'talk', title: 'What next', instruction: 'Are you switching to another tool, or just stopping? Which features did you actually use day to day?' };
    expect(await talkThrough(alt, ['switching, something cheaper', "how so what? it's cheaper. half the price."])).toEqual([
      'Are you switching to another tool, or just stopping?',
      'Could you say a bit more about that?',
      'Sorry, that was unclear. Which features did you actually use day to day?',
    ]);
    // After a "not really", the question itself is what needs saying again.
    const slow: Segment = { id: 'b', mode: 'talk', title: 'Friction', instruction: 'Ask about any moment where the product slowed them down. Ask what they would change first.' };
    expect((await talkThrough(slow, ['not really', 'more about what?']))[2]).toMatch(/^Sorry, that was unclear\. .*slowed you down\?$/);
  });

  it('asks a team lead who does not do it themself about their team', async () => {
    const context = starterScript.segments[1] as Segment;
    expect(await talkThrough(context, ['I do not really use it day to day myself. My team mostly uses it to pull the monthly revenue report for the board.', 'They used a shared Excel workbook.'])).toEqual([
      'What did you come to do today?',
      'What did your team use for it before?',
      'Could you tell me about the last time your team did it?',
    ]);
    // Their team working with them is no reason to ask about the team instead.
    expect((await talkThrough(context, ['I came to pull the monthly revenue report for the board, my team uses it with me.']))[1]).toBe('What did you use to pull the monthly revenue report before?');
  });

  it("finds the guide's own reply to a question during the task", () => {
    expect(guideReply('Don\'t help them. If they ask, say: "What would you do if I weren\'t here?" Note time on task.')).toBe("What would you do if I weren't here?");
    expect(guideReply('If they get stuck, tell them: "Take your time, there is no wrong way."')).toBe('Take your time, there is no wrong way.');
    expect(guideReply('Ask them to export the report. Do not help.')).toBeNull();
    const reply = "What would you do if I weren't here?";
    expect(whileWorking('where is the export button?', { reply })).toBe(reply);
    expect(whileWorking('ok clicking export now', { reply })).toBeNull();
    expect(whileWorking('where is the export button?', { reply, said: reply })).toBe(ON_YOUR_OWN);
  });

  it('hears "can we speed this up" as impatience with the interview', () => {
    expect(acknowledgement('the whole thing is slow. can we speed this up', { partsLeft: 2 })).toMatch(/^Fair enough/);
  });

  it('does not ask how long after "2 yrs", nor say "This part is about what next"', async () => {
    const role: Segment = { id: 'r', mode: 'talk', title: 'Role', instruction: "Ask about their role and how long they've been at the company." };
    expect(await talkThrough(role, ['accountant', '2 yrs'])).toEqual(['Could you tell me about your role?', 'Could you tell me more about your work as an accountant?', null]);
    expect(titleForParticipant('What next')).toBeNull();
    expect(titleForParticipant('Why they left')).toBe('why you left');
  });

  it('names back neither a piece of a web address, nor "the point", nor a count', () => {
    expect(followUp('monday.com, 4 people', 0, 'What tool do you use today, and how many people are on your team?')).not.toMatch(/\bcom\b|4 people/);
    expect(followUp("there wasn't one, that's the point", 0, 'Could you tell me more about the invite button?')).not.toMatch(/the point/);
  });
});

describe('a twenty-third walkthrough: a pricing study and a guide exported from Google Docs', () => {
  const plan = (instruction: string, mode = 'talk') => questionPlan({ mode, title: 'Part', instruction }).questions;

  it('never says a moderator note, however it is labelled', () => {
    expect(plan("Wrap up: anything else about pricing we should know?\nMod note – don't mention the new Team tier, it's under NDA until Q3.")).toEqual(['Anything else about pricing we should know?']);
    expect(plan('What did you try first?\nInterviewer note: they may be nervous.\nModerator notes — keep it short.')).toEqual(['What did you try first?']);
  });

  it("drops an outline's headings and time-boxes, never a line that asks", () => {
    expect(plan('2. Current workflow (10 mins)\n2.1 Weekly reporting\nAsk: Talk me through how you put together your weekly report.\n2.2 Sharing\nAsk: Who do you share the report with, and how?')).toEqual([
      'Could you talk me through how you put together your weekly report?',
      'Who do you share the report with, and how?',
    ]);
    expect(plan('- Ask about their role (5 min)\n- Ask how long they have been there')).toEqual(['Could you tell me about your role?', 'How long have you been there?']);
    expect(plan('2.1 Ask about their role\n1. What did you do first?')).toEqual(['Could you tell me about your role?', 'What did you do first?']);
  });

  it('keeps a quoted scenario as written, and an "Observe: do they…?" line is not the task', () => {
    expect(plan('Scenario: “You’re going on holiday for two weeks and don’t want the daily digest emails, but your manager still needs to get them.”\nAsk them to go to Settings › Notifications and make the change.\nObserve: do they find “Pause my digests” or do they turn digests off for the whole workspace?\nDo NOT help unless stuck for > 2 mins.', 'observe')).toEqual([
      'You’re going on holiday for two weeks and don’t want the daily digest emails, but your manager still needs to get them. Could you show me how you would go to Settings › Notifications and make the change, thinking aloud as you go?',
    ]);
  });

  it('does not turn "they" round in a question already asked of "you"', () => {
    expect(plan('Ask: Who do you share the report with?\nProbe: How do you know whether they’ve read it?')).toEqual(['Who do you share the report with?', 'How do you know whether they’ve read it?']);
    expect(plan('How do you pay your HOA dues today, and how do you keep track of when they\'re due?')).toEqual(["How do you pay your HOA dues today, and how do you keep track of when they're due?"]);
    // "they" before any "you" is still the participant, and held back.
    expect(interviewerDirected('What did they expect you to show?')).toBe('speaks of the participant as "they"');
    expect(plan('Probe: what tools do they use?')).toEqual(['What tools do you use?']);
  });
});

describe('what the twenty-third walkthrough heard from starter-study participants', () => {
  it('answers a question about the interview asked along with thinking aloud during a task', () => {
    expect(whileWorking('Wait, are you recording my screen? I would be typing my bank account number.')).toBe(NOT_RECORDED);
    expect(whileWorking('it spins for ages — by the way, do you work for them? — I clicked export again and got two files.')).toBe(WHO_WE_ARE);
  });

  it('hears "do you work for them?", "does that include my employer?", "can we wrap up?" and "Can I skip the rest?"', () => {
    expect(acknowledgement('Meh. The spinning was the worst part. And you never answered me — do you actually work for them or is this an agency thing?')).toBe(WHO_WE_ARE);
    expect(acknowledgement('Who exactly is "the team"? Does that include my employer?')).toBe(ONLY_THE_TEAM);
    expect(acknowledgement('fine. it went fine. can we wrap up?', { partsLeft: 2, minutes: 10 })).toBe('It takes about 10 minutes in all. After this, there is one more short topic to cover. You can stop at any time with "End interview".');
    expect(heardAs('Last month. It took an hour. Can I skip the rest?')).toBe('stop');
    expect(heardAs("I'd rather not say, next question.")).toBe('skip');
    // Told to friends, not to the interviewer.
    expect(heardAs('9, I already told two freelancer friends about it.')).toBeNull();
  });

  it('does not press an impatient participant for more', async () => {
    const friction = starterScript.segments[3] as Segment;
    expect((await talkThrough(friction, ['fine. it went fine. can we wrap up?']))[1]).toBe('What, if anything, took longer than you expected?');
  });

  it('does not ask what took longer after it was told, or after the task failed outright', async () => {
    const friction = starterScript.segments[3] as Segment;
    expect((await talkThrough(friction, ['It go ok. But button is hidden, I lose maybe five minute.']))[1]).toBe('What did you do at that point?');
    expect((await talkThrough(friction, ['For them? Slow. The filter reset is the main thing.']))[1]).toBe('What did you do at that point?');
    expect((await talkThrough(friction, ['It did not work. Same error as last time.']))[1]).toBe('What did you do at that point?');
  });

  it('reads a list typed on one line, and "doing it now", as notes', () => {
    expect(notesHeard(['ok doing it now: 1. opened Invoices 2. clicked New 3. typed the client name, it did not find the client'])).not.toMatch(/doing it now|\d/);
    expect(whileWorking('Who do I ask for access?')).toBe(ON_YOUR_OWN);
  });

  it('never says back a detail the participant may be typing', () => {
    expect(notesHeard(['ok typing my bank number now. Same error: invalid routing number.'])).not.toMatch(/bank number|routing number/);
    expect(notesHeard(["Can't find his IBAN field"])).toBe('Thank you for your notes about the IBAN field. ');
  });
});

describe('a pricing study: score ranges and prices', () => {
  const nps: Segment = { id: 'n', mode: 'talk', title: 'NPS', instruction: "NPS: On a scale of 0–10, how likely are you to recommend Acme to a friend or colleague?\nIf 9–10: ask what they'd tell a friend. If 0–6: ask what's missing.\n(7–8 = passive, just thank them and move on)" };
  it('branches on a range of scores', async () => {
    expect(questionPlan(nps).branches).toEqual([
      { after: 0, when: 'between', words: ['9', '10'], question: 'What would you tell a friend?' },
      { after: 0, when: 'between', words: ['0', '6'], question: "What's missing?" },
    ]);
    expect((await talkThrough(nps, ['9, I already told two freelancer friends about it.']))[1]).toBe('What would you tell a friend?');
    expect((await talkThrough(nps, ['3']))[1]).toBe("What's missing?");
  });

  it('takes a price named as the answer to "At what price…?"', async () => {
    const vw: Segment = { id: 'v', mode: 'talk', title: 'Price', instruction: "Q1. At what price would you consider the Pro plan so expensive that you wouldn't buy it?\nQ2. At what price would you think it's a bargain?" };
    expect(await talkThrough(vw, ['Maybe around 60 dollars a month? Somewhere between 50 and 70.', '25 a month would be a steal.'])).toEqual([
      "At what price would you consider the Pro plan so expensive that you wouldn't buy it?",
      "At what price would you think it's a bargain?",
      null,
    ]);
  });
});

describe('what the twenty-fourth walkthrough found', () => {
  it('takes a no to "Anything confusing?" as the answer', async () => {
    const page: Segment = { id: 'p', mode: 'talk', title: 'Page', instruction: "What's the first thing you noticed? Anything confusing?" };
    expect(await talkThrough(page, ['The green Most popular badge on the Pro plan, and that the annual toggle was on by default.', 'No, it was clear.'])).toEqual(["What's the first thing you noticed?", 'Anything confusing?', null]);
  });

  it('does not ask what they did then about something that has not happened', async () => {
    const confident: Segment = { id: 'c', mode: 'talk', title: 'Confident', instruction: 'Would you feel confident setting this up for your real team? Why / why not?' };
    expect(await talkThrough(confident, ['Not yet, no.', "Because I'd worry my team would get stuck assigning tasks."])).toEqual(['Would you feel confident setting this up for your real team?', 'Why or why not?', null]);
  });

  it('thanks a correction typed during a task, answers "can we speed this up?", and never names an e-mail address back', () => {
    expect(whileWorking('wait no, sorry, I misread that. I meant: the last time my team pulled the revenue report was on the 1st')).toBe(CLARIFIED);
    expect(acknowledgement('can we speed this up?', { partsLeft: 4 })).toBe('After this, there are 3 more short topics to cover. You can stop at any time with "End interview".');
    expect(notesHeard(['ok inviting jo@example.com now'])).not.toMatch(/@/);
  });
});

describe('after walkthrough 24: places and empty notes', () => {
  it('takes a place named as the whole answer to "Where…?"', async () => {
    const receipts: Segment = { id: 'r', mode: 'talk', title: 'Receipts', instruction: 'Where were the receipts? What was the most annoying part?' };
    expect(await talkThrough(receipts, ['In the hotel, on paper.'])).toEqual(['Where were the receipts?', 'What was the most annoying part?']);
  });

  it('thanks for no notes when all that was typed during the task were questions', () => {
    expect(notesHeard(['hello?', 'is it ok if I just use the search?'])).toBe('');
    expect(notesHeard(['typed invoice 1042 in search, found it'])).toMatch(/^Thank you for your notes/);
  });
});

describe('what the twenty-fifth walkthrough found', () => {
  const seg = (id: string) => starterScript.segments.find((x) => x.id === id) as Segment;

  it('keeps "a batch of", "a couple of" and "the list of" with what they hold, and asks about the habit without the count', () => {
    const goals = [
      ['I came in to pay a batch of supplier invoices. I run a small bakery with two shops.', 'pay a batch of supplier invoices', 'pay supplier invoices'],
      ['Pay a couple of invoices for my landscaping business. Though honestly my head is still at the weekend.', 'pay a couple of invoices', 'pay invoices'],
      ['I came to send a bunch of quotes to new customers for the spring season.', 'send a bunch of quotes', 'send quotes'],
      ['Export the list of overdue invoices for my accountant, she needs it by Friday.', 'export the list of overdue invoices', 'export the list of overdue invoices'],
      ['I needed to update one of our supplier records with their new bank details.', 'update one of your supplier records', 'update your supplier records'],
    ];
    for (const [answer, goal, habit] of goals) {
      expect(goalOf(answer), answer).toBe(goal);
      expect(grounded('What did you use for it before?', goal)).toBe(`What did you use to ${habit} before?`);
      expect(grounded('Could you tell me about the last time you did it?', goal)).toBe(`Could you tell me about the last time you had to ${habit}?`);
      expect(grounded('Could you go ahead with what you came to do today, as you normally would?', goal)).toBe(`Could you go ahead and ${goal}, as you normally would?`);
    }
  });

  it('thanks for notes by what they were about, not by a piece of a pair, a list or "this page"', () => {
    expect(notesHeard(["OK, I'm looking for a Pay or Invoices section but this page only has an Export report button. Not obvious where to start.", "Clicked Export report hoping it would list what's outstanding. Nothing visible happened."])).toBe('Thank you for your notes about the Export report button. ');
    expect(notesHeard(['I search where is the list of invoice, I see only Export report button', 'I click export, nothing happen? maybe is download somewhere'])).toBe('Thank you for your notes about the invoice. ');
    // A name before "and I…" is no piece of a pair.
    expect(followUp('I opened QuickBooks and I exported the file.', 0, 'What did you do?')).toContain('QuickBooks');
    expect(followUp('I called Sarah and I asked her.', 0, 'Who did you ask?')).toContain('Sarah');
  });

  it('asks what else took longer after a snag was told, and still what they did about the snag (walkthrough 25)', async () => {
    expect(await talkThrough(seg('friction'), ['It went ok, but I got stuck on the login for a bit before it let me in.', 'Nothing.', 'I reset my password and after that it let me straight in.'])).toEqual([
      'How did it go for you?',
      'Apart from what you mentioned, what, if anything, took longer than you expected?',
      'What did you do at that point?',
      null,
    ]);
    // A task that failed ("couldn't find the invoice page", "so I cannot pay today") took no "longer": what they did is asked.
    for (const failed of ["I couldn't find the invoice page anywhere on the dashboard.", 'Not good. I am not find the bill page, so I cannot pay today.'])
      expect(await talkThrough(seg('friction'), [failed, 'I called my accountant and she sent me the link.']), failed).toEqual(['How did it go for you?', 'What did you do at that point?', null]);
    // Found in the end, it was a snag on the way.
    expect((await talkThrough(seg('friction'), ["I couldn't find the invoice page at first, but eventually it was under Billing."]))[1]).toMatch(/^Apart from what you mentioned/);
    // No snag told: the question as written, and a no to it still skips what they did "at that point".
    expect(await talkThrough(seg('friction'), ['It went well, I paid both bills in a couple of minutes.', 'Nothing.'])).toEqual(['How did it go for you?', 'What, if anything, took longer than you expected?', null]);
  });

  it('takes "Gave up." as the whole answer', async () => {
    // "Couldn't find it." after a task: it failed, so nothing "took longer"; what they did is asked, and "Gave up." says it.
    expect(await talkThrough(seg('friction'), ['fine', "Couldn't find it.", 'Gave up.'])).toEqual(['How did it go for you?', 'Could you say a bit more about that?', 'What did you do at that point?', null]);
    // Said with more ("everything. gave up"), it is the end of the story too: no example of it, no "How so?".
    expect(await talkThrough(seg('friction'), ['badly. couldn\'t find it', 'no pay button. only export', 'everything. gave up'])).toEqual(['How did it go for you?', 'Could you say a bit more about that?', 'What did you do at that point?', null]);
    expect(followUp('everything. gave up', 0, 'What, if anything, took longer than you expected?')).not.toMatch(/example/);
    expect(followUp('Called support.', 0, 'What did you do at that point?')).not.toBeNull();
    // A failure told briefly is worth asking about; so is giving up, asked about otherwise.
    for (const [answer, asked] of [["It didn't.", 'Did the export work?'], ['Stopped.', 'What happened when the page froze?'], ['Gave up.', 'How did the upload go?']]) expect(followUp(answer, 0, asked), answer).not.toBeNull();
  });

  it('passes on a question about the product asked inside an answer', () => {
    const answer = "Last time was two weeks ago, Friday. I paid the mulch supplier. Took forever because I was doing it from my truck between jobs. Speaking of which, is this thing going to work on my phone? I'm almost never at a desk.";
    expect(acknowledgement(answer)).toBe(ACKNOWLEDGEMENT);
    expect(acknowledgement(answer, { said: ACKNOWLEDGEMENT })).toBe('Noted for the team.');
    expect(acknowledgement('Last time was Friday. Do you guys have a mobile app planned?', { said: ACKNOWLEDGEMENT })).toBe('Noted for the team.');
    // A question said to the screen or to themselves in a story is no question for the team.
    for (const story of [
      'I clicked Export and thought, why is nothing happening? Then it downloaded.',
      'I kept thinking, will it ever work? Eventually it did.',
      'My boss asked me, does this have to go out today? So I rushed the invoices.',
      'So you click Save and do you have any idea where it goes? Nowhere obvious.',
      'Honestly, can it get any worse? I ended up copying it by hand.',
      'Why would it let me enter an invalid IBAN? No idea.',
    ]) expect(acknowledgement(story), story).toBeNull();
    // Asked alone, it is a question, heard and passed on.
    expect(acknowledgement('Why does it need my IBAN?')).toBe(ACKNOWLEDGEMENT);
  });
});

/** A segment of the starter study, by id. */
const starter = (id: string) => starterScript.segments.find((s) => s.id === id) as Segment;

describe('what the twenty-sixth walkthrough found', () => {

  it('hears the goal in a clause of a long first answer, as a habit ("your card payments")', async () => {
    const told = "I run the finance side for a small chain of three bakeries, and today I came in to reconcile October's card payments against what our bank actually received. We do this at the start of every month.";
    expect(goalOf(told)).toBe("reconcile October's card payments");
    expect((await talkThrough(starter('context'), [told]))[1]).toBe('What did you use to reconcile your card payments before?');
  });

  it('hears a wish said as "what I\'d really want", and asks for anything apart from it', async () => {
    const wish = "What I'd really want is a reconciliation view: payouts grouped by shop, each payout showing which transactions went into it.";
    expect((await talkThrough(starter('value'), [], [wish]))[0]).toBe('Apart from what you mentioned, what would make the product more useful to you?');
  });

  it('probes trouble told in other Englishes ("it not show me the button", "the money it go two time")', async () => {
    const told = 'Last week I try pay but it not show me the button for confirm. I click many time, nothing. Then I am close and open again and the money it go two time? I am not sure.';
    expect(await talkThrough(starter('context'), ['I am come for pay the bill of my shop, the electricity one.', 'Before I am go to the bank office with paper.', told])).toEqual([
      'What did you come to do today?',
      'What did you use to pay the bill before?',
      'Could you tell me about the last time you had to pay the bill?',
      'What did you do then?',
    ]);
  });

  it('does not thank notes for what the participant saw instead of what they looked for', () => {
    expect(notesHeard(['I not see where is bill. Only is revenue and export.'])).toBe('Thank you for your notes. ');
    expect(notesHeard(['Looking for a payouts or transactions section.', 'Clicked Export report.'])).not.toMatch(/payouts|transactions/);
    expect(notesHeard(['looking for Bills... nothing happened', 'found it'])).toBe('Thank you for your notes about Bills. ');
  });

  it('answers "Will anyone actually read this, or does it go to the same place as my support tickets?" as a question about who reads', () => {
    expect(acknowledgement('Will anyone actually read this, or does it go to the same place as my support tickets?')).toBe(WHO_READS);
    expect(acknowledgement('Will this go to my manager?')).toBe(ONLY_THE_TEAM);
  });

  it('says a request about their own account cannot be acted on here, so nobody waits for it', () => {
    for (const asked of ['Yes, please check the money of last week, I think it take two time from my account. Thank you.', 'Can you refund my order? It was charged twice.'])
      expect(acknowledgement(asked), asked).toBe(ASK_SUPPORT);
    // A wish for the product is not a support request.
    for (const wish of ['Could you fix the bill page please', 'Please make the export faster.']) expect(acknowledgement(wish) ?? '', wish).not.toContain(ASK_SUPPORT);
  });
});

describe('what the twenty-seventh walkthrough found', () => {

  it('does not take "…and who gets the PDF" in a description for a question about who sees the answers', () => {
    expect(heardAs("A little 'schedule' option next to Export report where I pick the day and time and who gets the PDF.")).toBeNull();
    for (const asked of ['Who reads this?', 'who sees these', 'Who gets it?', 'So who sees my answers']) expect(acknowledgement(asked), asked).toBe(ONLY_THE_TEAM);
  });

  it('thanks notes for "the Export report button", not "the Export report button right"', () => {
    expect(notesHeard(['Found the Export report button right away, that was easy.'])).toBe('Thank you for your notes about the Export report button. ');
  });

  it('does not ask what they did about a snag whose telling already said it', async () => {
    expect(await talkThrough(starter('friction'), ['It was OK. But I was confused about the month, I had to open the PDF to check it was October.', 'Nothing else, only that.'])).toEqual([
      'How did it go for you?',
      'Apart from what you mentioned, what, if anything, took longer than you expected?',
      null,
    ]);
  });

  it('hears "I want to get it as an Excel file" as a wish told', async () => {
    expect((await talkThrough(starter('value'), [], ['I want to get it as an Excel file so I can add my own notes before the board sees it.']))[0]).toBe('Apart from what you mentioned, what would make the product more useful to you?');
  });
});

describe('an answer to another question than the one asked (walkthroughs 25 to 27)', () => {

  it('asks "what did you use before?" again, plainly, after an answer about earlier today, and does not take it for the last time', async () => {
    expect(await talkThrough(starter('context'), ["I wanted to export last month's revenue report for our board meeting.", 'Earlier today I had a standup, then answered emails and went through the invoices from the weekend.', 'Oh sorry. Before this I exported from QuickBooks into Excel.'])).toEqual([
      'What did you come to do today?',
      'What did you use to export your revenue report before?',
      "Sorry, my question wasn't clear. Before you had this product, what did you use to export your revenue report?",
      'Could you tell me about the last time you had to export your revenue report?',
    ]);
    // Without a goal, "for that"; an answer that says what they used is no misreading.
    expect((await talkThrough(starter('context'), ['Mostly invoices and some reports, the usual monthly stuff for the shop.', 'Before today I was in my shop all morning, very busy with customers.']))[2]).toBe("Sorry, my question wasn't clear. Before you had this product, what did you use for that?");
    expect((await talkThrough(starter('context'), ["I wanted to export last month's revenue report for our board meeting.", 'Earlier today I exported it from our old tool, same as always.']))[2] ?? '').not.toMatch(/wasn't clear/);
  });

  it('asks how the task itself went after a wish in answer to "How did it go for you?"', async () => {
    expect(await talkThrough(starter('friction'), ['I want to get it as an Excel file so I can add my own notes before the board sees it.', 'It was quick, I found the export straight away and it downloaded.'])).toEqual([
      'How did it go for you?',
      'Thank you, that is noted. And how did the task itself go for you?',
      'What, if anything, took longer than you expected?',
    ]);
    // A wish told with what went wrong is an answer.
    expect((await talkThrough(starter('friction'), ["I couldn't find the export, I wish it was on the home page."]))[1]).not.toMatch(/task itself/);
  });
});

describe('what the twenty-eighth walkthrough found', () => {

  it('keeps the participant\'s own hyphenated names as they said them ("the remember-me box")', () => {
    expect(followUp('A remember-me box.', 0, 'What would make the product more useful to you?')).toBe('Could you tell me more about the remember-me box?');
  });

  it('hears "I\'d really like …" to "How did it go for you?" as a wish, and asks how the task went', async () => {
    expect((await talkThrough(starter('friction'), ["I'd really like a remember-me box."]))[1]).toBe('Thank you, that is noted. And how did the task itself go for you?');
  });

  it('does not ask what they did about trouble told with what they did ("…didn\'t accept my password, so I tried again")', async () => {
    expect(await talkThrough(starter('friction'), ["It went okay. The login didn't accept my password the first time, so I tried again and then the payslip downloaded fine.", 'Just the login, it took maybe two minutes.'])).toEqual([
      'How did it go for you?',
      'What, if anything, took longer than you expected?',
      null,
    ]);
  });

  it('asks what they tried, not "How did it go for you?", after task notes that said it failed (walkthroughs 27 and 28)', async () => {
    const after = (notes: string[], answers: string[]) => talkThrough(starter('friction'), answers, [], notes);
    expect(await after(["I couldn't find where to pay, so I gave up."], ['I looked under Account and Billing and it was not there, then I searched for pay.'])).toEqual(['What did you try along the way?', null]);
    // Notes that do not say it failed leave the question as written.
    expect((await after(['Found the invoices page quickly.'], []))[0]).toBe('How did it go for you?');
  });

  it('asks about "your payslip" before and the last time, not "your latest payslip"', async () => {
    expect(await talkThrough(starter('context'), ['I wanted to download my latest payslip.', 'It is for my mortgage application.'])).toEqual([
      'What did you come to do today?',
      'Could you say a bit more about that?',
      'What did you use to download your payslip before?',
    ]);
  });
});

describe('what the twenty-ninth walkthrough found (a participant who misreads and asks back)', () => {
  const task = 'Could you go ahead with what you came to do today, as you normally would, and tell me what you notice along the way?';

  it('asks again with the goal told along with the puzzle, and says how long is left', async () => {
    const puzzledWithGoal = "Use for what? I haven't told you anything yet. I'm on the Fresco Box site, I wanted to skip next week's meal kit because we're travelling. Is this survey going to take long?";
    expect(await talkThrough(starter('context'), ["Today? It's Tuesday. Who are you exactly, are you a real person?", puzzledWithGoal, 'Before this product I cooked normally, went to the supermarket on Saturdays.'])).toEqual([
      'What did you come to do today?',
      'What did you use for it before?',
      'Sorry, that was unclear. This part is about what brought you here. What did you use to skip your meal kit before?',
      'Could you tell me about the last time you had to skip your meal kit?',
    ]);
    expect(acknowledgement(puzzledWithGoal, { partsLeft: 4, asked: 'What did you use for it before?' })).toBe(`After this, there are 3 more short topics to cover. ${FREE_TO_GO}`);
    // A later answer that only names what they used is no goal.
    expect(goalOf('Excel and the bank website before this.', true)).toBeNull();
  });

  it('takes a guess and an answer after "How did what go?" as the answer, not as puzzlement', () => {
    expect(heardAs('How did what go? The skipping? Fine I suppose.', 'How did it go for you?')).toBeNull();
    expect(heardAs("More useful than what? Than the supermarket? I guess if skipping was on the main page instead of buried in Orders.", 'What would make the product more useful to you?')).toBeNull();
    // Without a guess, what follows explains the puzzle.
    expect(heardAs('at which point? I am lost', 'How easy was it?')).toBe('puzzled');
  });

  it('says "here and now" to whether to do it for real, and does not guide someone asking where it is', () => {
    expect(whileWorking('What do you mean as I normally would? Should I actually skip the week now or just pretend? Will it really skip it?', { task })).toBe(HERE_AND_NOW);
    expect(whileWorking("Okay, I'll actually do it. Account menu... I see Orders, Plans. Is skipping under Orders? Can you just tell me where it is?", { task, said: HERE_AND_NOW })).toBe(ON_YOUR_OWN);
    expect(endsTask("Oh, found it, it's under Orders. Okay, skipped. Done I guess?")).toBe(true);
  });

  it('asks for anything apart from it after "the currency I search long time"', async () => {
    expect((await talkThrough(starter('friction'), ['It go ok, but the currency I search long time, maybe two minute. The flag is very small.']))[1]).toBe(
      'Apart from what you mentioned, what, if anything, took longer than you expected?',
    );
  });

  it('says the team reads every answer once when asked who and why together', () => {
    const line = acknowledgement('Why do you want to know that? Do you work for Fresco? Who are you?')!;
    expect(line.match(/reads every answer/g)).toHaveLength(1);
    expect(line).toContain(WHO_WE_ARE);
  });
});

describe('what walkthrough 30 found with a team-written guide', () => {
  const plan = (instruction: string, title = 'Current process') => questionPlan({ mode: 'talk', title, instruction });

  it('leaves a note to the interviewer after a dash out of the question, and asks no question of an outline heading with its time-box', () => {
    expect(plan('Tell me about a time the list went wrong – get the specific story, not generalities').questions).toEqual(['Could you tell me about a time the list went wrong?']);
    expect(plan('- Welcome them, explain recording\n- Mention the $50 gift card', 'Intro (2 min)').questions).toEqual(['Could you tell me a little about yourself and how you use the product?']);
    // A label and its task keep their dash.
    expect(questionPlan({ mode: 'observe', title: 'Task', instruction: 'Task 2 - ask them to change their delivery address.' }).questions).toEqual(['Could you show me how you would change your delivery address, thinking aloud as you go?']);
  });

  it('hears "group chat" as one thing to be mentioned, named by its last word', () => {
    const p = plan('What do you use to keep track of the list today? If they say group chat → ask how they find items later in the thread.');
    expect(p.branches).toEqual([{ after: 0, when: 'mentions', words: ['group chat'], question: 'How do you find items later in the thread?' }]);
    expect(branchApplies(p.branches[0], 'A group on WhatsApp')).toBe(false);
    expect(branchApplies(p.branches[0], 'Our family chat')).toBe(true);
  });

  it('does not ask "What happened then?" after a no to "Anything forgotten?"', async () => {
    const shop: Segment = { id: 's', mode: 'talk', title: 'Shop', instruction: '- Who added things to the list?\n- Anything forgotten?\n- What happened then?\n- What do you use to keep track of the list today?' };
    expect(await talkThrough(shop, ['Me, mostly.', 'No.'])).toEqual(['Who added things to the list?', 'Anything forgotten?', 'What do you use to keep track of the list today?']);
    expect((await talkThrough(shop, ['Me, mostly.', 'Yes, the milk, because nobody wrote it down and we only noticed at home.']))[2]).toBe('What happened then?');
  });

  it('does not ask what they did, or how it worked out, when the story said so', async () => {
    const story: Segment = { id: 's', mode: 'talk', title: 'Story', instruction: '- Could you tell me about a time the list went wrong?\n- What do you use to keep track of the list today?' };
    for (const told of [
      'Last month we both bought chicken and yoghurt because neither of us saw the other had it, and we ended up freezing the chicken and throwing out half the yoghurt.',
      'The app froze on the last step. Nothing happened, we just bought it the next day.',
    ]) expect((await talkThrough(story, [told]))[1], told).toBe('What do you use to keep track of the list today?');
  });

  it('answers what the data is for, a "trick question", and "what was the question?"', async () => {
    expect(acknowledgement('Three of us. Are you going to sell my data to supermarkets?')).toContain('used only for research');
    expect(acknowledgement('Is that a trick question?')).toBe(NOT_ASSUMING);
    expect(heardAs('Oh sorry, I got distracted, what was the question?', 'How did you decide what to buy?')).toBe('puzzled');
  });

  it('asks what they tried, and names nothing, when the page had nothing to try', async () => {
    const notes = ["What prototype? There's nothing on this page except some demo text."];
    expect(notesHeard(notes)).toBe('Thank you for your notes. ');
    expect((await talkThrough(starter('friction'), [], [], notes))[0]).toBe('What did you try along the way?');
  });
});

describe('a two-part question answered by half', () => {
  it('asks the other half: "Weekly." to "How often do you shop, and where?" gets "And where?"', async () => {
    const shop: Segment = { id: 's', mode: 'talk', title: 'Shopping', instruction: '- How often do you shop, and where?\n- Who adds things to the list?' };
    expect(await talkThrough(shop, ['Weekly.', 'The big Tesco.'])).toEqual(['How often do you shop, and where?', 'And where?', 'Who adds things to the list?']);
    expect(followUp('Twice a week.', 0, 'How often do you use it, and for what?')).toBe('And for what?');
  });
});

describe('what walkthrough 31 found', () => {
  it('answers "Can we speed this up?" again in short when how long was said in this part already', () => {
    const said = ['What did you come to do today?', `It takes about 10 minutes in all. After this, there are 4 more short topics to cover. ${FREE_TO_GO}`, 'What did you use for it before?'].join('\n');
    expect(acknowledgement('Gave up and asked the bookkeeper. Can we speed this up?', { said, partsLeft: 5, minutes: 10 })).toBe('Just this and 4 more short topics.');
  });

  it('does not thank notes "about Revenue 12": a figure read off the screen is not what they were about', () => {
    expect(notesHeard(['Looking at it. Revenue 12% up. Cant tell which stores are included.'])).toBe('Thank you for your notes. ');
  });
});

describe('team guides written as notes (walkthrough 32)', () => {
  it('keeps "Watch:" notes from the participant and hands over a task whose verb also coaches ("Log yesterday\'s workout")', () => {
    expect(observe("Log yesterday's workout. Watch: finds + button? picks type?")).toEqual(["Could you show me how you would log yesterday's workout, thinking aloud as you go?"]);
    expect(observe("Record yesterday's expenses in the app. Record hesitations.")).toEqual(["Could you show me how you would record yesterday's expenses in the app, thinking aloud as you go?"]);
    // Logging what the interviewer sees is still coaching.
    expect(observe('Log hesitations and errors.')).toEqual([expect.stringMatching(/^For this part/)]);
    // A note's question goes; the guide's own question after it stays.
    expect(talk('Watch: do they mention the PO field? Ask how the first invoice went.')).toEqual(['How did the first invoice go?']);
    expect(talk('Ask how the first invoice went. Watch: hesitates at PO? mentions VAT?')).toEqual(['How did the first invoice go?']);
  });

  it('drops the name of a question, asks what to pay attention to, and lists a topic\'s parts with "and"', () => {
    expect(talk('Magic wand question: if you could change one thing about getting started, what would it be?')).toEqual(['If you could change one thing about getting started, what would it be?']);
    expect(talk('Ask them to walk you through the most recent renewal decision, paying attention to who else was involved and what information they needed.')).toEqual([
      'Could you walk me through the most recent renewal decision?',
      'Who else was involved, and what information did you need?',
    ]);
    expect(talk('Background — role, team size')).toEqual(['Could you tell me about your background: your role and team size?']);
    for (const q of [...talk('Background — role, team size'), ...observe("Log yesterday's workout. Watch: finds + button? picks type?")]) expect(directedText(q)).toBeNull();
  });

  it('asks what terse notes and "Start by getting…" paragraphs mean to ask, dropping none of their lines', () => {
    expect(talk('Pain points??')).toEqual(['What, if anything, gets in your way?']);
    expect(talk('Probe: anything they had to ask IT or their accountant about.')).toEqual(['Was there anything you had to ask IT or your accountant about?']);
    // Quoted for the participant already (an agent's guide, walkthrough 37): "them" is what was added, and a request and a question in one quote are both asked.
    expect(talk('Ask: "Which payment methods did your customers ask for, and how did you add them?"')).toEqual(['Which payment methods did your customers ask for, and how did you add those?']);
    expect(talk('Ask: "Tell me about the last time you set up checkout for your shop. What happened first?"')).toEqual(['Could you tell me about the last time you set up checkout for your shop?', 'What happened first?']);
    expect(questionPlan({ mode: 'talk', title: 'T', instruction: 'Ask how the last renewal went. Do not suggest that the process is painful.' }).unasked).toEqual(['Do not suggest that the process is painful.']);
    expect(talk('1 thing to change')).toEqual(['If you could change one thing, what would it be?']);
    expect(talk('Last time used?')).toEqual(['When did you last use it?']);
    expect(talk('Ever stopped logging → why.')).toEqual(['Have you ever stopped logging?', 'Why?']);
    expect(talk('- Typical week of workouts\n- Gym / home / outdoors?')).toEqual(['Could you tell me about your typical week of workouts?', 'Gym / home / outdoors?']);
    expect(
      talk(
        'Start by getting the participant to describe their responsibilities around software purchasing, and make sure you get a sense of how many tools they manage. Then have them walk through the most recent renewal decision. Finish by having them describe what would have made that decision faster.',
      ),
    ).toEqual([
      'Could you describe your responsibilities around software purchasing?',
      'How many tools do you manage?',
      'Could you walk me through the most recent renewal decision?',
      'Could you describe what would have made that decision faster?',
    ]);
  });
});

describe('a starter-study walkthrough of four participants (walkthrough 33)', () => {
  it('does not ask how a way round worked out after its cost was told, nor what they tried after notes that said so', async () => {
    const lastTime: Segment = { id: 'x', mode: 'talk', title: 'Last time', instruction: 'Ask them to tell you about the last time they did it.' };
    expect(await talkThrough(lastTime, ['Two weeks ago. The Checkout page only shows revenue, not the funnel. I ended up exporting raw events and doing the funnel in a SQL notebook, took me half a day.'])).toEqual([
      'Could you tell me about the last time you did it?',
      null,
    ]);
    const notes = ["Opened Checkout. Same revenue card as home. There's nothing here I can use for this.", "Tried Export report to get the raw data. No file. So I'd go back to the SQL notebook."];
    expect((await ruleInterviewer.next({ segment: starter('friction'), turns: [], state: NEW_TALK, earlier: [], notes })).say).toBe('What did you expect to happen?');
    // Notes that only say it failed still get asked what was tried.
    expect((await ruleInterviewer.next({ segment: starter('friction'), turns: [], state: NEW_TALK, earlier: [], notes: ["There's nothing here I can use for this."] })).say).toBe('What did you try along the way?');
  });

  it('thanks notes about "the Checkout page", not "Checkout page"', () => {
    expect(notesHeard(['i go to Checkout page but it look same like home. confusing. i think i give up and ask Tomas again'])).toBe('Thank you for your notes about the Checkout page. ');
    expect(notesHeard(['Clicked Export report. Nothing visible happened, no download, no toast.'])).toBe('Thank you for your notes about the Export report. ');
  });
});

describe('a second starter-study walkthrough (walkthrough 35)', () => {
  it('leaves the story to "the last time" question, and digs into no wish', async () => {
    expect((await talkThrough(starter('context'), ["ngl i just wanted to export the revenue thing for my mom's etsy shop lol 😅 she asked me to bc she cant figure it out 💀"]))[1]).toMatch(/^What did you use .*before\?$/);
    expect(
      (await talkThrough(starter('context'), ['I wished to look at the October figures and print them for the committee.', 'Before the computer programme, I kept everything in a green ledger book, by hand. It was slow but one always knew where one stood.']))[2],
    ).toMatch(/^Could you tell me about the last time/);
    const wish = "Cheaper pricing, honestly. A per-company plan instead of per seat, or a free tier for under 5 people. I'd also pay yearly if there was a discount. Right now I'm comparing you with two competitors that are half the price.";
    expect(await talkThrough(starter('value'), [wish])).toEqual(['What would make the product more useful to you?', null]);
  });

  it('takes up "Can we talk about pricing?", points a request for a call to support, and asks back what something means during a task', async () => {
    const asked = await talkThrough(starter('friction'), ['Like I said, it went fine, the export is quick. My real problem is the price.', 'Nothing took longer. As I said, it was quick. Can we talk about pricing?', '$49 a seat a month is a lot for a two-person team.']);
    expect(asked.slice(2)).toEqual(['Yes, please. What would you like to tell us about pricing?', null]);
    expect(acknowledgement('Nothing took longer. As I said, it was quick. Can we talk about pricing?', { asked: 'What, if anything, took longer than you expected?' })).toBeNull();
    expect(acknowledgement('Only that I am grateful for your patience. And, if I may ask, is there someone who could telephone me about the printing?', { asked: 'Is there anything else you would like to tell us?' })).toBe(CALL_SUPPORT);
    expect(whileWorking('There is one marked Export report. I am not certain what export means in this context; is it sending it abroad?', {})).toBe(WHAT_DO_YOU_THINK);
    expect(whileWorking('what does this button do?', { said: WHAT_DO_YOU_THINK })).toBe(ON_YOUR_OWN);
  });

  it('answers "Is this going to my boss?", does not ask what they did after "had to wait til…", and asks what was tried after "still nothin" (walkthrough 36)', async () => {
    expect(acknowledgement('Is this going to my boss?', { asked: 'What did you come to do today?' })).toMatch(/^Only the team that makes the product reads your answers/);
    expect(acknowledgement('Why, does it matter when?', { asked: 'Could you tell me about the last time you did it?' })).toMatch(/helps the team/);
    const friction: Segment = { id: 'f', mode: 'talk', title: 'Last time', instruction: 'Ask them to tell you about the last time they did it.' };
    expect(await talkThrough(friction, ['last tues. 3am. couldnt find the export button on my phone, had to wait til i got to the nurses station pc'])).toEqual(['Could you tell me about the last time you did it?', null]);
    expect((await ruleInterviewer.next({ segment: starter('friction'), turns: [], state: NEW_TALK, earlier: [], notes: ['tapped export. still nothin', 'no file in downloads'] })).say).toBe('What did you try along the way?');
  });

  it('asks what they expected when they are unsure what the product should have done, once, instead of passing it on', async () => {
    const asked = await talkThrough(starter('friction'), ['Fine I guess. Not sure the export did anything. Should it have?', 'An email with the file, I suppose.']);
    expect(asked.slice(0, 3)).toEqual(['How did it go for you?', 'What did you expect it to do?', expect.stringMatching(/took longer than you expected\?$/)]);
    expect(acknowledgement('Fine I guess. Not sure the export did anything. Should it have?', { asked: 'How did it go for you?' })).toBeNull();
  });

  it('hears the goal in a list, in formal English and after a slangy opener', () => {
    expect(goalOf('Three things today:\n1. export the monthly revenue report as CSV for our board deck\n2. check the October growth number')).toBe('export the monthly revenue report');
    expect(goalOf('Good morning. I must say I am not entirely certain what is meant by this. Today I wished to look at the October figures, which he tells me have risen.')).toBe('look at the October figures');
    expect(goalOf('ngl i just wanted to check the october revenue lol')).toBe('check the october revenue');
  });
});

describe('a study written in the web app (walkthrough 38)', () => {
  it('says a speak segment without the notes in it, and asks "what they did the last time…" whole, even after a task that failed', async () => {
    expect(spokenText('Thanks for joining [remind them we record the screen]. Probe: ask if they have 10 minutes. There are no wrong answers.')).toEqual({
      said: 'Thanks for joining. There are no wrong answers.',
      left: ['[remind them we record the screen]', 'Probe: ask if they have 10 minutes.'],
    });
    expect(spokenText(starterScript.segments[0].speak_text!).left).toEqual([]);
    const full: Segment = { id: 'full', mode: 'talk', title: 'When a class is full', instruction: 'Ask what they did the last time the class they wanted was full.' };
    expect(talk(full.instruction!)).toEqual(['What did you do the last time the class you wanted was full?']);
    // Notes that said the task failed answer what they did then, not what they did another time.
    expect((await ruleInterviewer.next({ segment: full, turns: [], state: NEW_TALK, earlier: [], notes: ["couldn't find the yoga class, gave up"] })).say).toBe('What did you do the last time the class you wanted was full?');
  });
});

describe('a fourth starter walkthrough: interruptions (walkthrough 39)', () => {
  it('waits for a participant who steps away or sends an answer mid-sentence, and thanks notes for what they are about', async () => {
    const asked = await talkThrough(starter('context'), ['sorry one sec, my son just knocked juice all over the table', 'ok back. I wanted to book swimming lessons for my daughter for the autumn term and the', 'the Saturday slot, because she has school in the week.']);
    expect(asked.slice(0, 4)).toEqual(['What did you come to do today?', "Take your time, I'll wait.", 'Please go on.', expect.stringMatching(/^What did you use to book swimming lessons/)]);
    expect(acknowledgement('sorry one sec, my son just knocked juice all over the table', { asked: 'What did you come to do today?' })).toBeNull();
    expect(notesHeard(["Correction: it's not that nothing happened, the file downloaded but as xlsx"])).toBe('Thank you for your notes. ');
  });
});

describe('a fifth starter walkthrough: corrections, questions back and sarcasm (walkthrough 40)', () => {
  it('takes a word put right at once, says so, and uses the right word from then on', async () => {
    const asked = await talkThrough(starter('context'), [
      'I came to send a quote to a new client, the one for the kitchen renovation job.',
      "Sorry, I meant the invoices, not the quotes. I came to send an invoice for the kitchen job that's finished. Before, I used Word templates and emailed PDFs.",
    ]);
    expect(asked[1]).toBe('What did you use to send a quote before?');
    expect(asked[2]).toBe('Could you tell me about the last time you had to send an invoice?');
    const said = asked.slice(0, 2).join('\n');
    expect(acknowledgement("Sorry, I meant the invoices, not the quotes. I came to send an invoice.", { said })).toBe('Got it: the invoices, not the quotes.');
    expect(acknowledgement('Not a quote, an invoice. Last time was two weeks ago.', { said })).toBe('Got it: an invoice, not a quote.');
    // A contrast about something the interviewer never said is an answer, not a correction.
    expect(acknowledgement('It was slow, not broken.', { said })).toBeNull();
    expect(acknowledgement('I mean the dashboard, not the app.', { said })).toBeNull();
    const turns = [
      { role: 'conductor', text: 'What did you come to do today?' },
      { role: 'participant', text: 'I came to send a quote to a new client.' },
      { role: 'conductor', text: 'What did you use to send a quote before?' },
      { role: 'participant', text: 'Not a quote, an invoice. Word, before.' },
    ];
    expect(grounded('Could you go ahead with what you came to do today, as you normally would?', goalIn(turns))).toBe('Could you go ahead and send an invoice to a new client, as you normally would?');
    expect(goalIn(turns.slice(0, 2))).toBe('send a quote to a new client');
  });

  it('answers who reads it and whether there is a reward, and hears the no after "Huh?" as the end', () => {
    expect(acknowledgement("Who's going to read this exactly?", { asked: 'What did you use for it before?' })).toBe(ONLY_THE_TEAM);
    expect(heardAs('Will I get anything for doing this? A voucher or something?', 'What did you use for it before?')).toBe('meta');
    expect(acknowledgement('Will I get anything for doing this? A voucher or something?', {})).toMatch(/^I can't say anything about rewards from here/);
    expect(acknowledgement('Do I get paid for this?', {})).toMatch(/rewards/);
    expect(acknowledgement('I got a voucher from the shop or something, so I used that.', { asked: 'What did you use for it before?' })).toBeNull();
    const anythingElse = 'Is there anything else you would like to tell us?';
    expect(heardAs("Huh? Whatever. No, that's all.", anythingElse)).toBeNull();
    expect(addsNothing("Huh? Whatever. No, that's all.")).toBe(true);
    expect(heardAs('Huh?', anythingElse)).toBe('puzzled');
  });

  it('asks a bare "Fantastic." to say more rather than what makes it work, and owns a misreading when told it was sarcasm', () => {
    expect(followUp('Fantastic.', 0, 'How did it go for you?')).toBe('Could you say a bit more about that?');
    expect(followUp('It was fantastic, the templates saved me an hour.', 0, 'How did it go for you?')).toBe('What makes it work well for you?');
    expect(acknowledgement('That was sarcasm. Nothing works well. The sync is broken, I told you.', { asked: 'What, if anything, took longer than you expected?' })).toBe('Sorry, I took that the wrong way.');
    expect(acknowledgement('Are you kidding me, it took an hour.', {})).toBeNull();
  });

  it('asks a participant stuck on the task what they would try on their own, once, without showing them how', () => {
    const stuck = "I don't know. I'm not sure where to start, I don't see invoices on this page.";
    expect(whileWorking(stuck, { said: '' })).toBe('That is useful to see. What would you try next if you were on your own?');
    expect(whileWorking(stuck, { said: 'That is useful to see. What would you try next if you were on your own?' })).toBeNull();
    expect(whileWorking('Where I find the orders list? I am stuck here.', { said: '' })).toBe(ON_YOUR_OWN);
    expect(whileWorking("I can't find the export button, but the page looks clean.", { said: '' })).toBeNull();
  });
});

describe('walkthrough 40: follow-ups that fit what was said, and a skip that skips one question', () => {
  it('asks what a wish would look like, gives "I don\'t know" room to think, and after a skip still asks what does not point back at it', async () => {
    expect(followUp('Sync that works.', 0, 'What would make the product more useful to you?')).toBe('Could you tell me more about sync?');
    expect(followUp('Sync that works.', 0, 'What would make the product more useful to you?', [], 'Could you tell me more about the export?')).toBe('What would that look like for you?');
    expect(followUp("I don't know.", 0, 'How did it go for you?')).toBe('What comes to mind, even if it is something small?');
    const asked = await talkThrough(starter('context'), ['I came to send an invoice to a new client.', 'Skip this one.', 'Two weeks ago, for a bathroom job.']);
    expect(asked[1]).toBe('What did you use to send an invoice before?');
    expect(asked[2]).toBe('Could you tell me about the last time you had to send an invoice?');
  });
});

describe('a guide written in the web app (walkthrough 43)', () => {
  it('asks whether they could do something as whether they were able to, and the last one they did as "the", not "your"', () => {
    const plan = (instruction: string) => questionPlan({ mode: 'talk', title: 'Your approval routine', instruction }).questions;
    expect(plan('Last report they approved — where they were, which device, what happened. Probe esp. on whether they could check the receipt against the amount.')).toEqual([
      'Could you tell me about the last report you approved: where you were, which device and what happened?',
      'Were you able to check the receipt against the amount?',
    ]);
    expect(plan('Ask if they could see the total.')).toEqual(['Were you able to see the total?']);
    expect(plan('Ask what they could do instead.')).toEqual(['What could you do instead?']);
  });
});

describe('walkthrough 40: a participant who answers with questions', () => {
  it('says why it asks, takes the goal from the answer after the questions, and hears a question turned back as no question', async () => {
    expect(acknowledgement('Why do you ask?', { asked: 'What did you come to do today?' })).toBe(WHY_WE_ASK);
    const turns = [
      { role: 'conductor', text: 'What did you come to do today?' },
      { role: 'participant', text: 'Why do you ask?' },
      { role: 'conductor', text: 'What did you come to do today?' },
      { role: 'participant', text: 'Is this recorded?' },
      { role: 'conductor', text: 'What did you come to do today?' },
      { role: 'participant', text: "Ok fine. I came to check our team's monthly revenue report. Honestly though, the weather here has been awful." },
    ];
    expect(grounded('What did you use for it before?', goalIn(turns))).toBe("What did you use to check your team's monthly revenue report before?");
    const asked = 'What would make the product more useful to you?';
    expect(heardAs('What would make YOU more useful? Ha. Ok: show the month on the report and actually download the file when I click export.', asked)).toBeNull();
    expect(acknowledgement('Sync that works. Is that a known problem?', { asked })).not.toBeNull();
    // "Just kidding" about their own joke is no misreading of ours.
    expect(acknowledgement('How did it go for YOU? Just kidding. It went fine.', { asked: 'How did it go for you?' }) ?? '').not.toMatch(/wrong way/);
  });
});

describe('walkthroughs 44 and 46: a data engineer, an older participant and a postcode', () => {
  it('says the goal without the clause that says which, thanks notes for what they are about, not a value typed, and is kind to an apology', async () => {
    expect(goalOf('Today I came to rotate the API key that the pipeline uses, because it expires on Friday.')).toBe('rotate the API key');
    expect(goalOf('I came to make sure that the export works.')).not.toBe('make sure');
    expect(notesHeard(['The postcode field rejects SW1A 1AA again, the error just says invalid.'])).toBe('Thank you for your notes. ');
    expect(notesHeard(['I paid 3 bills. 2 were late.'])).toBe('Thank you for your notes about 3 bills. ');
    expect(acknowledgement('I am sorry if that is not the kind of answer you wanted.', {})).toBe('No need to apologise: this is exactly what helps.');
    expect(acknowledgement('Sorry, I meant the invoices.', {})).toBeNull();
  });

  it('does not hear "I am afraid" as a fear, nor ask what a wish told at length would look like', async () => {
    const story = 'My grandson Tom helped me last Sunday. After the roast he sat with me at the kitchen table and pressed the buttons for me. Then a little box came up at the bottom of the screen and he clicked it. I have lost the envelope with his notes, I am afraid.';
    expect((await talkThrough(starter('context'), ['I came to send the monthly report to my accountant.', story]))[2]).not.toBe('What makes you say that?');
    const wish = 'One clear suggestion: support two active API keys per integration, so we can create the new key, deploy it, then revoke the old one with zero downtime.';
    expect((await talkThrough(starter('value'), [wish]))[1]).not.toBe('What would that look like for you?');
    expect((await talkThrough(starter('value'), ["I'd like it to remember my last export."]))[1]).toBe('What would that look like for you?');
  });
});

describe('walkthrough 44: a participant on a phone and a data engineer', () => {
  it('asks no "What happened next?" of an answer that tells how it ended, and no last time of something nobody ever did', async () => {
    expect(followUp('tried export. nothing. gave up', 0, 'What did you come to do today?')).toBe('Could you tell me more about the export?');
    const asked = await talkThrough(starter('context'), [
      'Today I came to rotate the API key that the pipeline uses.',
      'Before, the key was a long-lived personal token in our secrets manager, and nobody rotated it because revoking it would break the pipeline.',
    ]);
    expect(asked[1]).toBe('What did you use to rotate the API key before?');
    expect(asked[2] ?? '').not.toMatch(/the last time/);
  });
});

describe('walkthrough 44: a cooperative florist', () => {
  it('hears the goal said with its time ("came in this morning to…") and asks into a story of symbols that came out garbled', async () => {
    const asked = await talkThrough(starter('context'), [
      "I run a small flower shop, Petal & Stem, with two part-time staff. I came in this morning to export last month's revenue report so I can send it to my accountant before the end of the month.",
      'Before this I kept everything in a spreadsheet. Every Sunday night I typed the day totals from the till receipts into Excel, and my accountant got a copy each month.',
      'The last time was on the 1st of this month. I opened the dashboard on my laptop between deliveries, clicked Export report, and got a CSV. When I opened it in Excel the pound signs and the accents in my supplier names came out as strange symbols.',
    ]);
    expect(asked[1]).toBe('What did you use to export your revenue report before?');
    expect(asked[3]).toBe('What did you do then?');
  });
});

describe('walkthrough 47: cooperative participants', () => {
  it('asks into a threat to leave or a near miss told at the end, and says "this term\'s report" as "your report" when asked about before', async () => {
    const last = await talkThrough(starter('anything-else'), ["If I can't fix this by the end of the month I'll probably go back to my Word template, honestly."]);
    expect(last[1]).toBe('What would decide that for you?');
    const near = await talkThrough(starter('anything-else'), ["Sarah told me she'd nearly cancelled her membership over a similar mix-up in the summer, so it matters."]);
    expect(near[1]).toBe('What did you do then?');
    expect(grounded('What did you use for it before?', "download this term's attendance report")).toBe('What did you use to download your attendance report before?');
  });
});
