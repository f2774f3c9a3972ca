import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimOf, describe as describeQuote, headlineOf, HEADLINE_MAX } from '../tools/evidence/headline.ts';
import { namedThing } from '../tools/evidence/wishes.ts';
import { LocalExtractor } from '../tools/evidence/local-extractor.ts';
import { clock } from '../tools/common.ts';
import { startTestService, type TestService } from './helpers/service.ts';
import { importedInterview, importedText, ownerWithProject, settled } from './helpers/fixtures.ts';

/** Headlines summarise the moment in a researcher's voice; claims say what happened and to whom. */
const cases: Array<[quote: string, headline: string, claim: string]> = [
  ["I couldn't find the export button anywhere on the page.", "Couldn't find the export button anywhere on the page", "The participant couldn't find the export button anywhere on the page."],
  ['So, um, the confirm button was just greyed out and nobody told me why.', 'The confirm button was just greyed out', 'The participant said the confirm button was just greyed out and nobody told them why.'],
  ['Honestly I use Excel for all of that because the report is useless.', 'Uses Excel for all of that', 'The participant uses Excel for all of that because the report is useless.'],
  ['It took me like twenty minutes to pay one invoice!', 'It took twenty minutes to pay one invoice', 'The participant said it took them twenty minutes to pay one invoice.'],
  ["I'm always scared I'll send the wrong amount to a supplier.", 'Is always scared they will send the wrong amount to a supplier', 'The participant is always scared they will send the wrong amount to a supplier.'],
  ['We chose it because the invoices looked professional and the price was fair for a small team like ours.', 'Chose it because the invoices looked professional', 'The participant chose it because the invoices looked professional and the price was fair for a small team like theirs.'],
  ["I don't really trust the totals, you know, so I check them again in a spreadsheet every single month before I send anything out.", "Doesn't really trust the totals", "The participant doesn't really trust the totals, so they check them again in a spreadsheet every single month before they send anything out."],
  ['I try to fix it myself.', 'Tries to fix it themselves', 'The participant tries to fix it themselves.'],
  ['I would switch tomorrow if it had bulk upload.', 'Would switch tomorrow if it had bulk upload', 'The participant would switch tomorrow if it had bulk upload.'],
  // A leading subordinate clause keeps its main clause, and a later "I am" agrees with "they".
  ['If they lose my streak again, I am gone.', 'If they lose their streak again, they are gone', 'The participant said if they lose their streak again, they are gone.'],
  // What happened leads and keeps its condition or cause, unless it is too thin to lead ("they are gone").
  ["When the sync failed, I was stuck for an hour.", 'Was stuck for an hour when the sync failed', 'The participant said when the sync failed, they were stuck for an hour.'],
  ['If the app keeps double-booking, we would move elsewhere.', 'Would move elsewhere if the app keeps double-booking', 'The participant said if the app keeps double-booking, they would move elsewhere.'],
  ['Because the extension button never works, I book a second slot.', 'Books a second slot because the extension button never works', 'The participant said because the extension button never works, they book a second slot.'],
  ["When it spiked to purple during the smoke, I'll be honest, I was scared.", 'When it spiked to purple during the smoke, they were scared', "The participant said when it spiked to purple during the smoke, they will be honest, they were scared."],
  // "Just that…" is what was said; a colon ends the main clause; a hedge before a clause is no judgement (walkthrough 44).
  ["Just that the busy weeks matter most to me: Valentine's and Mother's Day are a third of my year.", 'The busy weeks matter most to them', "The participant said the busy weeks matter most to them: Valentine's and Mother's Day are a third of their year."],
  ['The export failed again: the file was empty and the page said nothing about it at all.', 'The export failed again', 'The participant said the export failed again: the file was empty and the page said nothing about it at all.'],
  // "a while" is a span of time, not a clause that follows; an "-ing" subject is said as it is (walkthrough 40).
  ["Finding the report took a while, the Home page doesn't say which month it is.", 'Finding the report took a while', "The participant said finding the report took a while, the Home page doesn't say which month it is."],
  ['Showing up at the depot and finding it closed.', 'Showing up at the depot and finding it closed', 'The participant described showing up at the depot and finding it closed.'],
  // What it made them feel like is the feeling; a noun phrase is not cut before its noun (walkthrough 41).
  ['But the app make me feel like I cannot speak.', 'The app make them feel like they cannot speak', 'The participant said the app make them feel like they cannot speak.'],
  ['What I do now is I keep a Word document open on the second monitor with my own templates and I just paste them in.', 'Keeps a Word document open on the second monitor', 'The participant keeps a Word document open on the second monitor with their own templates and they just paste them in.'],
  // An answer to "why?" that opens on "Because" is the reason itself; "either … or" is one phrase.
  ["Because I don't have to think about what's for dinner.", "Doesn't have to think about what's for dinner", "The participant said because they don't have to think about what's for dinner."],
  ['It was either the small motorboat for four hours or the sailboat for the full day, and my partner can\'t sail.', 'It was either the small motorboat for four hours or the sailboat', "The participant said it was either the small motorboat for four hours or the sailboat for the full day, and their partner can't sail."],
  // "figure out if …" is what they could not tell, not a condition; "put" told in the past stays "put".
  ['I spent ages trying to figure out if the walker would be alone with just my dog or with, like, a group.', 'Spent ages trying to figure out if the walker would be alone', 'The participant spent ages trying to figure out if the walker would be alone with just their dog or with a group.'],
  ['I put the wrong date, like, I booked Tuesday instead of Wednesday.', 'Put the wrong date', 'The participant put the wrong date, they booked Tuesday instead of Wednesday.'],
  // Over the limit, a leading hedge goes before anything that was said.
  ["I just put fifty quid on at the start of term and don't look at it again.", "Puts fifty quid on at the start of term and doesn't look at it again", "The participant just puts fifty quid on at the start of term and doesn't look at it again."],
  // A verb the tagger took for a noun still agrees when its object follows ("we text Maria").
  ['So what we do is we text Maria directly on WhatsApp now.', 'Texts Maria directly on WhatsApp now', 'The participant texts Maria directly on WhatsApp now.'],
  // "For me is very difficult to …" (non-native) is what the participant finds hard; the claim keeps their words.
  ['For me is very difficult to understand which zone I am.', 'Finds it very difficult to understand which zone they are', 'The participant said for them is very difficult to understand which zone they are.'],
  // Where they were comes first, what happened after: the headline is what happened; a state with a quality is the moment.
  ["My dad was on ward 7B and the app wanted the patient's hospital number.", "The app wanted the patient's hospital number", "The participant said their dad was on ward 7B and the app wanted the patient's hospital number."],
  ['I was at work and the app crashed.', 'The app crashed', 'The participant was at work and the app crashed.'],
  ['The floor plan is tiny on the phone and the desk numbers overlap.', 'The floor plan is tiny on the phone', 'The participant said the floor plan is tiny on the phone and the desk numbers overlap.'],
  // A hyphenated word is whole ("auto top-up"); a relative clause is a boundary; "even" left by a cut goes.
  ['I would love an auto top-up, like when it hits five pounds just take another twenty from my card.', 'Would love an auto top-up', 'The participant would love an auto top-up, like when it hits five pounds just take another twenty from their card.'],
  ['We have got this shared Google Sheet where people write their name next to a desk, because half the team just do not trust the app.', 'Has got this shared Google Sheet', 'The participant has got this shared Google Sheet where people write their name next to a desk, because half the team just do not trust the app.'],
  // Cut word by word, no verb is left without its object; a hedge is not the headline's first word.
  ["I'd like to be able to let my brother in without giving him my login.", 'Would like to be able to let their brother in', 'The participant would like to be able to let their brother in without giving him their login.'],
  ["I honestly don't know what the numbers mean.", "Doesn't know what the numbers mean", "The participant doesn't know what the numbers mean."],
  // Too long for both: the condition is cut at a phrase boundary, or left out, never cut mid-phrase.
  ["If it can't handle the second site when we open the taproom, we'll have to move to something else.", "Will have to move to something else if it can't handle the second site", "The participant said if it can't handle the second site when they open the taproom, they will have to move to something else."],
  // A pseudo-cleft says its verb once: "What I want is…", "What I do is…", "The reason I … is …".
  ["What I'd really want is to see the actual route.", 'Would want to see the actual route', 'The participant would want to see the actual route.'],
  ['What I want is for it to tell me when to close the windows.', 'Wants it to tell them when to close the windows', 'The participant wants it to tell them when to close the windows.'],
  ['What I do now is take a screenshot of the permit every time.', 'Takes a screenshot of the permit every time', 'The participant takes a screenshot of the permit every time.'],
  ["The reason we use it at all is the council stopped paper permits, so, I mean, it's not like we had a choice.", 'Uses it at all because the council stopped paper permits', "The participant said the reason they use it at all is the council stopped paper permits, so, it's not like they had a choice."],
  // The scene comes first, the moment after it: the headline is the moment.
  ['So last Tuesday I had to pay our supplier, and the confirm button just stayed grey, no message, nothing.', 'The confirm button just stayed grey, no message, nothing', 'The participant said last Tuesday they had to pay their supplier, and the confirm button just stayed grey, no message, nothing.'],
  ['Then at nine I pressed submit and the whole form just cleared itself.', 'The whole form just cleared itself', 'The participant said at nine they pressed submit and the whole form just cleared itself.'],
  // A frame ("The problem was,") is not the content; "me" inside an idiom becomes "them".
  ['The problem was, the invoice screen never saved my draft.', 'The invoice screen never saved their draft', 'The participant said the invoice screen never saved their draft.'],
  ['I could not for the life of me find it.', 'Could not for the life of them find it', 'The participant could not for the life of them find it.'],
  // A cut inside a quotation leaves no lone quotation mark; the claim keeps the closing one.
  ['The banner kept saying "your payment is being processed and will be available in the account within three business days"', 'The banner kept saying your payment is being processed', 'The participant said the banner kept saying "your payment is being processed and will be available in the account within three business days".'],
  ['I was furious.', 'Was furious', 'The participant was furious.'],
  // A second verb of the same subject agrees; a tag after a comma is left out; a particle stays.
  ['I export the hours every Friday and send them to payroll.', 'Exports the hours every Friday and sends them to payroll', 'The participant exports the hours every Friday and sends them to payroll.'],
  ['Um, the export took forever, honestly.', 'The export took forever', 'The participant said the export took forever.'],
  ['Then I just gave up.', 'Just gave up', 'The participant just gave up.'],
  // A verbless opener before a comma gives way to the clause; so do "Also" and "First,".
  ['And for the refunds, I want to see which ones are still pending.', 'Wants to see which ones are still pending', 'The participant said for the refunds, they want to see which ones are still pending.'],
  ['First, I need a way to filter by date.', 'Needs a way to filter by date', 'The participant needs a way to filter by date.'],
  ['Also I keep a paper list next to the till.', 'Keeps a paper list next to the till', 'The participant keeps a paper list next to the till.'],
  // Asides at the end say how, not what; a tag question is not the moment.
  ['I was livid, I can tell you.', 'Was livid', 'The participant was livid, they can tell you.'],
  ['The upload page is a mess, to be honest.', 'The upload page is a mess', 'The participant said the upload page is a mess, to be honest.'],
  ["You can't print from the app, can you?", "You can't print from the app", "The participant said you can't print from the app, can you."],
  // A particle after "it"/"them" stays, and so does the last word the participant said.
  ['I just switched the router off.', 'Just switched the router off', 'The participant just switched the router off.'],
  ['I talked to my manager and decided to sit it out.', 'Talked to their manager and decided to sit it out', 'The participant talked to their manager and decided to sit it out.'],
  ['Nobody explained that to me before.', 'Nobody explained that to them before', 'The participant said nobody explained that to them before.'],
  // "and then I ring them": the repeated subject goes and the verb agrees.
  ['I book it online and then I phone them to check.', 'Books it online and then phones them to check', 'The participant books it online and then phones them to check.'],
  // "I really am" agrees past its adverb, and as a tail it says nothing about the moment.
  ["So I'm grateful for it, I really am.", 'Is grateful for it', 'The participant is grateful for it, they really are.'],
  // A spoken aside between commas goes, and words said again after it come once; a headline drops hedges, a claim keeps them.
  ['But it only downloads as a, what do they call it, a CSV, and when I open it all the numbers come out in one column.', 'It only downloads as a CSV', 'The participant said it only downloads as a CSV, and when they open it all the numbers come out in one column.'],
  ["The export, I guess, is fine but the sync, what's it called, the bridge thing, keeps dropping.", 'The export is fine', "The participant said the export, they guess, is fine but the sync, the bridge thing, keeps dropping."],
  ["Sorry, it's, um, it's fine, they're watching something.", "Sorry, it's fine", "The participant said sorry, it's fine, they're watching something."],
  // "I'd" before a past participle is "I had"; a name keeps its capital in the claim; a clipped sentence gets its subject.
  ["Honestly by the time I'd strapped them both in I was sweating and we were already late.", 'By the time they had strapped them both in they were sweating', 'The participant said by the time they had strapped them both in they were sweating and they were already late.'],
  ["ZipRide cars don't have them, so I carry two car seats.", "ZipRide cars don't have them", "The participant said ZipRide cars don't have them, so they carry two car seats."],
  ['Took me a while to figure out.', 'Took a while to figure out', 'The participant said it took them a while to figure out.'],
  ['Deleted it, reinstalled it, paired the sensor again.', 'Deleted it, reinstalled it, paired the sensor again', 'The participant deleted it, reinstalled it, paired the sensor again.'],
  // A restart comes once; a repeated word that finishes its clause stays.
  ["And there's no, there's no little message saying what's happening or whether I should try again, it just spins.", "There's no little message saying what's happening", "The participant said there's no little message saying what's happening or whether they should try again, it just spins."],
  ['Players love it, it looks proper, like a movie.', 'Players love it, it looks proper, like a movie', 'The participant said players love it, it looks proper, like a movie.'],
  // "What kept me was really that …": the content is after the copula; "Did that" alone says nothing.
  ["What kept me was really that I don't have parking at my flat, and a van on the street with gear in it, no thanks.", "What kept them was really that they don't have parking at their flat", "The participant said what kept them was really that they don't have parking at their flat, and a van on the street with gear in it, no thanks."],
  ["So I did that, and I walked right up to the driver's door with the phone basically touching the window.", "Did that, and they walked right up to the driver's door with the phone", "The participant did that, and they walked right up to the driver's door with the phone basically touching the window."],
  // "Like I said," points back; what the speaker takes back ("Boots, no sorry,") goes; "er" is a filler; "what I'd like." keeps its verb.
  ['Like I said, I did the pivot in Excel.', 'Did the pivot in Excel', 'The participant did the pivot in Excel.'],
  ['Boots, no sorry, PillPal makes you do the face thing every time.', 'PillPal makes you do the face thing every time', 'The participant said PillPal makes you do the face thing every time.'],
  ["I took a screenshot of the order confirmation because, er, I didn't trust it.", 'Took a screenshot of the order confirmation', "The participant took a screenshot of the order confirmation because they didn't trust it."],
  ["Nothing, that's just what I'd like.", "Nothing, that's just what they would like", "The participant said nothing, that's just what they would like."],
  // A preposition after a verb is not a particle: the headline does not end on it.
  ['It only downloads as, like, a big file.', 'It only downloads as a big file', 'The participant said it only downloads as a big file.'],
  // A full stop the tagger keeps on the last word is still one full stop; "Which," picks up a thread.
  ['The problem was the first time I actually pulled in.', 'The problem was the first time they actually pulled in', 'The participant said the problem was the first time they actually pulled in.'],
  ["Which, the kid's cool, but that's not the point.", "The kid's cool", "The participant said the kid's cool, but that's not the point."],
  // From the headline tuning set (test/fixtures/headlines/tuning.json): what the participant set out
  // to do gives way to what happened; a cut leaves no orphaned subject, hedge or opening quotation mark.
  ["I was trying to book for the whole team, like six desks together, and it only does single bookings, so I'm sitting there doing it six times.", 'It only does single bookings', 'The participant was trying to book for the whole team, six desks together, and it only does single bookings, so they are sitting there doing it six times.'],
  ["I paid the eighty-five pounds, got charged twice on my card, and the app still says 'No active permit'.", 'The app still says No active permit', "The participant paid the eighty-five pounds, got charged twice on their card, and the app still says 'No active permit'."],
  ['The payment bounced because my card expired, but it, it told me straight away and I updated the card and it went through second time.', 'The payment bounced because their card expired', 'The participant said the payment bounced because their card expired, but it, it told them straight away and they updated the card and it went through second time.'],
  ["If they keep that fifty pence fee on every payment I'm honestly going to send cash in an envelope, I don't care if it's old fashioned.", 'Is honestly going to send cash in an envelope', "The participant said if they keep that fifty pence fee on every payment they are honestly going to send cash in an envelope, they don't care if it's old fashioned."],
  ["I'd want to know the van's actual height before I book, 'cause, uh, some car parks have a two-metre barrier and I nearly hit one.", "Would want to know the van's actual height before they book", "The participant would want to know the van's actual height before they book, 'cause some car parks have a two-metre barrier and they nearly hit one."],
  // A run-on's claim stops at a clause boundary; the rest stays in the quote.
  [
    "And I roll up and it just sits there, the screen says welcome like I'm some random, and there's a line of like four cars behind me and I'm tapping the app trying to find a member button and there isn't one, so I'm just sitting there sweating.",
    'Rolls up and it just sits there, the screen says welcome',
    "The participant rolls up and it just sits there, the screen says welcome like they are some random, and there's a line of four cars behind them.",
  ],
  // From a new user's first import (a fourteenth reading): examples after "like", an unpunctuated frame, a request, a time said first, a second verb after "and just".
  ["The bank sync pulls in things like 'POS 4471 AMZN MKTP' and I have no idea what that is.", 'The bank sync pulls in things like POS 4471 AMZN MKTP', "The participant said the bank sync pulls in things like 'POS 4471 AMZN MKTP' and they have no idea what that is."],
  ['The problem is it sends me across the warehouse and back again.', 'It sends them across the warehouse and back again', 'The participant said it sends them across the warehouse and back again.'],
  ['Let me type the bin code by hand when the scan fails.', 'Wants to type the bin code by hand when the scan fails', 'The participant wants to type the bin code by hand when the scan fails.'],
  ['Let me see, I clicked export and nothing happened.', 'Clicked export and nothing happened', 'The participant clicked export and nothing happened.'],
  ["Two weeks ago I tried to split a Costco receipt between groceries and household, and it duplicated the whole amount, so it looked like I'd spent four hundred dollars instead of two hundred.", 'It duplicated the whole amount', 'The participant said two weeks ago they tried to split a Costco receipt between groceries and household, and it duplicated the whole amount.'],
  ["I print the pick list at the start of the shift and just scan things in the order I walk and ignore the app's order.", 'Prints the pick list at the start of the shift', "The participant prints the pick list at the start of the shift and just scans things in the order they walk and ignores the app's order."],
  // An aside inside a phrase takes both its commas; before a clause of its own, one stays.
  ['Took me, like, an hour.', 'Took an hour', 'The participant said it took them an hour.'],
  ["I'd already spent, like, twenty minutes on it.", 'Had already spent twenty minutes on it', 'The participant had already spent twenty minutes on it.'],
  ['I opened the app, um, nothing loaded.', 'Opened the app, nothing loaded', 'The participant opened the app, nothing loaded.'],
  // A new user's trial: a quote with no subject is said as what the participant did with it, not "The participant said kind of annoying."
  ['Kind of annoying?', 'Kind of annoying', 'The participant found it kind of annoying.'],
  ["Just tell me when it's ready.", "Wants to be told when it's ready", "The participant asked the team to just tell them when it's ready."],
  ['Show me the free slots before I start shopping, please.', 'Wants to see the free slots before they start shopping', 'The participant asked the team to show them the free slots before they start shopping.'],
  ['Pretty anxious, because the doctor had just changed the dose.', 'Pretty anxious, because the doctor had just changed the dose', 'The participant felt pretty anxious, because the doctor had just changed the dose.'],
  ['Their own-brand organic range.', 'Their own-brand organic range', 'The participant mentioned their own-brand organic range.'],
  ["Showing up and them saying there's no order, after the app said submitted.", "Showing up and them saying there's no order", "The participant described showing up and them saying there's no order, after the app said submitted."],
  // A step told as an imperative, or a sentence whose first word only looks like one, is still reported as said.
  ['Search for the invoice number, it never works.', 'Search for the invoice number, it never works', 'The participant said search for the invoice number, it never works.'],
  ['Pay button is hidden.', 'Pay button is hidden', 'The participant said pay button is hidden.'],
  // A name joined by a hyphen keeps its "me" (walkthrough 28: "a remember-them box").
  ["I'd really like a remember-me box.", 'Would really like a remember-me box', 'The participant would really like a remember-me box.'],
  // One "they" per claim: what "they" did to the participant is said from the participant's side.
  ['They told me I had to pay again.', 'Was told they had to pay again', 'The participant was told they had to pay again.'],
  ['They kept me on hold for an hour.', 'Was kept on hold for an hour', 'The participant was kept on hold for an hour.'],
  // Non-native and spoken grammar is not repeated, nor a contraction typed without its apostrophe.
  ['im not sure what happened', 'Is not sure what happened', 'The participant is not sure what happened.'],
  ["theres no coupon box on this page", "There's no coupon box on this page", "The participant said there's no coupon box on this page."],
  ['I not find the button for pay.', 'Did not find the button', 'The participant did not find the button for pay.'],
  ["He don't know how to use the app.", "He doesn't know how to use the app", "The participant said he doesn't know how to use the app."],
  ['Me and my wife we use it every day.', 'They and their wife use it every day', 'The participant and their wife use it every day.'],
  ['It was fine for my wife and me.', 'It was fine for their wife', 'The participant said it was fine for their wife and them.'],
  // Walkthrough 29's imports: an adverb before the verb, "what I want is, I…", a missing "it", a hedge, a trailing filler.
  ['I currently keep my own comment bank in a Word document.', 'Currently keeps their own comment bank in a Word document', 'The participant currently keeps their own comment bank in a Word document.'],
  ['What I want is, I take the photo, it reads the amount and it just finds the transaction.', 'Wants to take the photo', 'The participant wants to take the photo, it reads the amount and it just finds the transaction.'],
  ['Is minus twenty-two in there, and the battery dies very fast.', 'The battery dies very fast', 'The participant said it is minus twenty-two in there, and the battery dies very fast.'],
  ['So now I lie to the app basically.', 'Lies to the app', 'The participant lies to the app.'],
  ['And Saturdays are the only time I can go because I work shifts.', 'Saturdays are the only time they can go', 'The participant said Saturdays are the only time they can go because they work shifts.'],
  ["Once you know, it works, and it's actually quicker than typing it in.", 'Once you know, it works', "The participant said once you know, it works, and it's actually quicker than typing it in."],
  ['Or just let "Other" go through and let the clinic call me.', 'Just let "Other" go through and let the clinic call them', 'The participant asked the team to just let "Other" go through and let the clinic call them.'],
  // A condition said on its own, or only called welcome, is a wish.
  ['If I could filter by date.', 'Wishes they could filter by date', 'The participant wishes they could filter by date.'],
  ['If only it remembered my card.', 'Wishes it remembered their card', 'The participant wishes it remembered their card.'],
  ["If it showed the fees up front, that'd be a game changer honestly.", 'Wishes it showed the fees up front', 'The participant wishes it showed the fees up front.'],
  ['If the page loads, it works fine.', 'It works fine if the page loads', 'The participant said if the page loads, it works fine.'],
  // "the driver I booked" is about the driver; the main clause comes after it.
  ['If the driver I booked cancels I get nothing back.', 'Gets nothing back if the driver they booked cancels', 'The participant said if the driver they booked cancels they get nothing back.'],
  ['If it could remember the last address I used.', 'Wishes it could remember the last address they used', 'The participant wishes it could remember the last address they used.'],
];

describe('headlines and claims', () => {
  it.each(cases)('%s', (quote, headline, claim) => {
    expect(headlineOf(quote)).toBe(headline);
    expect(claimOf(quote)).toBe(claim);
  });

  it('says how a recovery was put right, not only what went wrong', () => {
    const recovered: Array<[string, string]> = [
      ['The upload failed twice, but I cleared the cache and it went through.', 'The upload failed twice; cleared the cache and it went through'],
      ['My card got declined, so I rang the bank and then it worked.', 'Card got declined; rang the bank and then it worked'],
      ['The app logged me out mid-order and I thought I had lost the basket, but it was all still there when I logged back in.', 'The app logged them out mid-order; it was all still there'],
      ["The courier didn't turn up on Friday, and within an hour they'd found another driver and refunded the delivery.", "The courier didn't turn up on Friday; they refunded the delivery"],
      // Said in one clause already, or with no fix at all: the ordinary headline.
      ['The export crashed halfway, but support fixed it the same afternoon.', 'The export crashed halfway, but support fixed it the same afternoon'],
      ['I just restarted it and it worked.', 'Just restarted it and it worked'],
    ];
    for (const [quote, headline] of recovered) expect(headlineOf(quote, 'recovery_success'), quote).toBe(headline);
    // Other types keep the ordinary headline.
    expect(headlineOf('The upload failed twice, but I cleared the cache and it went through.', 'struggling_moment')).toBe('The upload failed twice');
  });

  it('keeps the person of what the participant quotes, one full stop, names, a feeling said alone and a habit said without "I"', async () => {
    // An import walkthrough's cards: "a little "they" icon", "hey they send you swap", `try again.".`, "said evergreen was…".
    expect(describeQuote('After that, I always text the person first on WhatsApp, "hey I send you swap, please look," and then it is okay.')).toEqual({
      headline: 'After that, they always text the person first on WhatsApp',
      claim: 'The participant said after that, they always text the person first on WhatsApp, "hey I send you swap, please look," and then it is okay.',
    });
    expect(describeQuote('There was a little "i" icon, and I clicked it, and it just said "includes professional services."')).toEqual({
      headline: 'There was a little "i" icon',
      claim: 'The participant said there was a little "i" icon, and they clicked it, and it just said "includes professional services."',
    });
    expect(claimOf('I rented it through the owner, not through the app, if you follow me.')).toBe('The participant rented it through the owner, not through the app.');
    expect(describeQuote('Honestly livid.')).toEqual({ headline: 'Felt livid', claim: 'The participant felt livid.' });
    expect(describeQuote('Frustrated, honestly.')).toEqual({ headline: 'Felt frustrated', claim: 'The participant felt frustrated.' });
    expect(describeQuote('Usually just call them instead.', 'workaround')).toEqual({ headline: 'Usually just calls them instead', claim: 'The participant usually just calls them instead.' });
    // A request stays a request.
    expect(claimOf('Always show me the total before I pay.')).not.toMatch(/^The participant always/);
    const turn = (idx: number, role: 'interviewer' | 'participant', text: string) => ({ segment_id: 'seg', idx, role, speaker: null, start_ms: idx * 1000, end_ms: idx * 1000 + 900, text });
    const cards = await new LocalExtractor().extract([
      turn(0, 'interviewer', 'Which funeral home did you pick?'),
      turn(1, 'participant', 'We went with Evergreen in the end. Evergreen was the one the hospice nurse mentioned, and I was so relieved they had a website where you could plan the arrangements online.'),
    ]);
    expect(cards.map((c) => c.claim)).toContain('The participant said Evergreen was the one the hospice nurse mentioned, and they were so relieved they had a website where you could plan the arrangements online.');
  });

  it('says what a thin remark follows: "Still nothing" after the click it was about (walkthrough 33)', async () => {
    const turn = (idx: number, role: 'interviewer' | 'participant', text: string) => ({ segment_id: 'seg', idx, role, speaker: null, start_ms: idx * 1000, end_ms: idx * 1000 + 900, text });
    const heads = async (q: string, a: string) => (await new LocalExtractor().extract([turn(0, 'interviewer', q), turn(1, 'participant', a)])).map((c) => [c.quote, c.headline]);
    expect(await heads('What happened when you clicked Export?', 'I clicked the Export button twice and waited a minute. Nothing happened. Still nothing.')).toContainEqual([
      'Still nothing.',
      'Clicked the Export button twice and waited a minute; still nothing',
    ]);
    expect(await heads('Could you go ahead with what you came to do today, as you normally would, and tell me what you notice along the way?', 'i click export. nothing happen??')).toEqual([
      ['i click export. nothing happen??', 'Clicks export; nothing happen'],
    ]);
  });

  it('says requests as wants, closes the quotation it ends on, and drops restarts, asides and a stray comma (walkthrough 34)', () => {
    expect(describeQuote('Show me the rejected lines.', 'desired_outcome')).toEqual({ headline: 'Wants to see the rejected lines', claim: 'The participant asked the team to show them the rejected lines.' });
    expect(headlineOf('Just give me a text message when something in Spanish posts.', 'desired_outcome')).toBe('Wants a text message when something in Spanish posts');
    expect(describeQuote("And don't log me out in the middle of claiming.", 'desired_outcome')).toEqual({
      headline: "Doesn't want it to log them out in the middle of claiming",
      claim: 'The participant asked the team not to log them out in the middle of claiming.',
    });
    expect(headlineOf('I put in the card, hit "Reserve", and it said "Payment failed, please try again."', 'critical_error')).toBe('It said "Payment failed, please try again"');
    expect(headlineOf('Just, the thing with Noah, the Thursday thing, where it said six minutes and the bus was already there.', 'critical_error')).toMatch(/^The thing with Noah/);
    expect(headlineOf('Yes, so, like I said, that night with robot two, the acknowledge did not work, I had to drive.', 'critical_error')).not.toMatch(/said/i);
    expect(describeQuote('That was, I mean, I wanted the floor to swallow me.', 'emotional_response')).toEqual({ headline: 'Wanted the floor to swallow them', claim: 'The participant wanted the floor to swallow them.' });
    expect(claimOf('Gone because of a login timeout.')).toBe('The participant said it was gone because of a login timeout.');
    // "It was me who paid" is no restart.
    expect(claimOf('It was me who paid for the whole thing.')).toMatch(/^The participant said it was them who paid/);
  });

  it('leaves emoji and chat fillers out of headlines and claims, spells out chat shorthand, and makes no card of "I just told you" or "nah thats it ✌️" (walkthrough 35)', async () => {
    expect(headlineOf('i literally just opened it lmao.', 'workaround')).toBe('Literally just opened it');
    expect(headlineOf('csv export fr.', 'desired_outcome')).toBe('Wants csv export');
    expect(headlineOf('i kept scrolling and then saw it 👀 then clicked it.', 'smooth_completion')).toBe('Kept scrolling and then saw it then clicked it');
    expect(claimOf('the button is kinda tiny tho and it just gave a pdf?? my mom needs it for excel 🤷‍♀️')).toBe('The participant said the button is kinda tiny though and it just gave a pdf.');
    expect(headlineOf("bruh i told u 😭 i opened the app, clicked around, couldnt find export at first.", 'struggling_moment')).toBe("Opened the app, clicked around, couldn't find export at first");
    const turn = (idx: number, role: 'interviewer' | 'participant', text: string) => ({ segment_id: 'seg', idx, role, speaker: null, start_ms: idx * 1000, end_ms: idx * 1000 + 900, text });
    const cards = await new LocalExtractor().extract([
      turn(0, 'interviewer', 'What would you change to make the product better for you?'),
      turn(1, 'participant', 'I just told you: the pricing.'),
      turn(2, 'interviewer', 'Is there anything else you would like to tell us?'),
      turn(3, 'participant', 'nah thats it ✌️'),
    ]);
    expect(cards).toEqual([]);
    // "no gtg break over" to "Anything else?" closes the interview too.
    expect(await new LocalExtractor().extract([turn(0, 'interviewer', 'Is there anything else you would like to tell us?'), turn(1, 'participant', 'no gtg break over')])).toEqual([]);
  });

  it('takes "I don\'t know" to a wish question as no wish, and the suggestion after it as the wish (walkthrough 36)', async () => {
    const turn = (idx: number, role: 'interviewer' | 'participant', text: string) => ({ segment_id: 'seg', idx, role, speaker: null, start_ms: idx * 1000, end_ms: idx * 1000 + 900, text });
    const cards = await new LocalExtractor().extract([turn(0, 'interviewer', 'What would make the product more useful to you?'), turn(1, 'participant', "I don't know, whatever the others asked for probably. Maybe if it told me when the export is ready?")]);
    expect(cards.map((c) => [c.signal_type, c.quote])).toEqual([['desired_outcome', 'Maybe if it told me when the export is ready?']]);
  });

  it('reads praise of what went wrong as irony: "it\'s great when the bus icon just sits in the depot…" is a struggle', async () => {
    const turn = (idx: number, role: 'interviewer' | 'participant', text: string) => ({ segment_id: 'seg', idx, role, speaker: null, start_ms: idx * 1000, end_ms: idx * 1000 + 900, text });
    const typesOf = async (said: string) => (await new LocalExtractor().extract([turn(0, 'interviewer', 'How does tracking the bus go in the morning?'), turn(1, 'participant', said)])).map((c) => c.signal_type);
    expect(await typesOf("Oh, it's great when the bus icon just sits in the depot for ten minutes and then teleports to our street.")).toEqual(['struggling_moment']);
    // Praise of what works stays praise.
    expect(await typesOf("It's great when it works, honestly, most mornings it does.")).toEqual(['smooth_completion']);
  });

  it('heads the moment, not the frame around it ("To answer you:", "Just said:", "Correction to my earlier note:") (walkthrough 39)', () => {
    expect(headlineOf('To answer you: show the class times first.', 'desired_outcome')).toBe('Show the class times first');
    expect(headlineOf('Just said: I wrote a Python script to clean it.', 'workaround')).toBe('Wrote a Python script to clean it');
    expect(headlineOf("Correction to my earlier note: it's not that nothing happened, the file downloaded as xlsx.", 'critical_error')).toBe("It's not that nothing happened, the file downloaded as xlsx");
    expect(headlineOf('What I was saying, I spent about five minutes scrolling for the timetable.', 'struggling_moment')).toBe('Spent about five minutes scrolling for the timetable');
  });

  it("leaves a transcript's bracketed sounds out of headlines, claims and the edges of quotes, and keeps bracketed words", async () => {
    expect(describeQuote('[laughs] Honestly the export is broken, it never finishes.')).toEqual({ headline: 'The export is broken, it never finishes', claim: 'The participant said the export is broken, it never finishes.' });
    expect(describeQuote('I tried to upload it three times (inaudible) and it just spun forever.').claim).toBe('The participant tried to upload it three times and it just spun forever.');
    expect(headlineOf('I wish I could [crosstalk] just see all my bookings on one page.', 'desired_outcome')).not.toMatch(/crosstalk/);
    // An editor's insertion is words: it stays.
    expect(claimOf('I went to [the portal] and it was down.')).toMatch(/\[the portal\]/);
    const turn = (idx: number, role: 'interviewer' | 'participant', text: string) => ({ segment_id: 'seg', idx, role, speaker: null, start_ms: idx * 1000, end_ms: idx * 1000 + 900, text });
    const said = '[laughs] Honestly the export is broken, it never finishes.';
    const cards = await new LocalExtractor().extract([turn(0, 'interviewer', 'How did the export go?'), turn(1, 'participant', said)]);
    expect(cards.map((c) => c.quote)).toEqual(['Honestly the export is broken, it never finishes.']);
    // A recording's mark of speech not made out is no one's words.
    expect(await new LocalExtractor().extract([turn(0, 'interviewer', 'How did the export go?'), turn(1, 'participant', '[unclear speech]')])).toEqual([]);
  });

  it('gives a short remark with no clause to summarise its own words, not a bare type name', async () => {
    const turn = (idx: number, role: 'interviewer' | 'participant', text: string) => ({ segment_id: 'seg', idx, role, speaker: null, start_ms: idx * 1000, end_ms: idx * 1000 + 900, text });
    const cards = await new LocalExtractor().extract([turn(0, 'interviewer', 'What happened when the sync failed again on Friday?'), turn(1, 'participant', 'Oh, wonderful. Another hour gone.')]);
    const remark = cards.find((c) => c.quote === 'Oh, wonderful.');
    expect(remark?.headline).toBe('Emotion: "Oh, wonderful"');
    expect(remark?.claim).toBe('The participant reacts emotionally: "Oh, wonderful."');
  });

  it('makes one card of a moment told over consecutive sentences, quoting them whole, headed by the surest one', async () => {
    const turn = (idx: number, role: 'interviewer' | 'participant', text: string) => ({ segment_id: 'seg', idx, role, speaker: null, start_ms: idx * 1000, end_ms: idx * 1000 + 900, text });
    const told = "Honestly it was a mess. The export failed three times in a row. It kept saying the file was too big and I couldn't figure out why. So I gave up and copied the numbers into Excel by hand.";
    const cards = await new LocalExtractor().extract([turn(0, 'interviewer', 'How did the export go?'), turn(1, 'participant', told)]);
    const error = cards.filter((c) => c.signal_type === 'critical_error');
    expect(error).toHaveLength(1);
    expect(error[0].quote).toBe("The export failed three times in a row. It kept saying the file was too big and I couldn't figure out why.");
    expect(told).toContain(error[0].quote); // verbatim
    expect(error[0].headline).toBe('It kept saying the file was too big');
    expect(cards.find((c) => c.signal_type === 'workaround')?.quote).toBe('So I gave up and copied the numbers into Excel by hand.');
  });

  it('heads a wish told in two sentences with the thing it names, and hears "it would be great if" as a wish', async () => {
    const turn = (idx: number, role: 'interviewer' | 'participant', text: string) => ({ segment_id: 'seg', idx, role, speaker: null, start_ms: idx * 1000, end_ms: idx * 1000 + 900, text });
    const wishes = async (answer: string) => (await new LocalExtractor().extract([turn(0, 'interviewer', 'What would make it better?'), turn(1, 'participant', answer)])).filter((c) => c.signal_type === 'desired_outcome');
    const [history] = await wishes('A history of what I sent. I want to see that, so I know the client got it.');
    expect(history.quote).toBe('A history of what I sent. I want to see that, so I know the client got it.');
    expect(history.headline).toBe('Wants to see a history of what they sent');
    const [bulk] = await wishes('Bulk upload. I need it to take like fifty photos at once, not one by one.');
    expect(bulk.headline).toBe('Needs bulk upload to take fifty photos at once, not one by one');
    const [sync] = await wishes('It would be great if it synced with Google so I stop double booking.');
    expect(sync.headline).toBe('Wishes it synced with Google so they stop double booking');
    expect(sync.claim).toBe('The participant wishes it synced with Google so they stop double booking.');
    // What only names a thing is a thing; what says something happened is not.
    expect(['Google Calendar sync.', 'Dark mode please.', 'Yeah, the export.', 'The buttons move.', 'The app crashed.', 'Then I went home.'].map(namedThing)).toEqual(['Google Calendar sync', 'dark mode', 'the export', null, null, null]);
  });

  it('takes a short answer to "What would make it more useful?" as the wish it was asked for, said as one', async () => {
    const turn = (idx: number, role: 'interviewer' | 'participant', text: string) => ({ segment_id: 'seg', idx, role, speaker: null, start_ms: idx * 1000, end_ms: idx * 1000 + 900, text });
    const wishes = async (answer: string) =>
      (await new LocalExtractor().extract([turn(0, 'interviewer', 'What would make the product more useful to you?'), turn(1, 'participant', answer)])).map((c) => [c.signal_type, c.headline, c.claim]);
    expect(await wishes('Pay button up front.')).toEqual([['desired_outcome', 'Wants pay button up front', 'The participant wants pay button up front.']]);
    expect(await wishes('Faster loading, mostly.')).toEqual([['desired_outcome', 'Wants faster loading', 'The participant wants faster loading.']]);
    expect(await wishes('Save my card details.')).toEqual([['desired_outcome', 'Wants to save their card details', 'The participant wants to save their card details.']]);
    // A no is no wish, and a sentence that only says no is no struggle, whatever the question.
    expect((await wishes('Nothing really.')).filter(([type]) => type === 'desired_outcome')).toEqual([]);
    const snag = await new LocalExtractor().extract([turn(0, 'interviewer', 'What, if anything, took longer than you expected?'), turn(1, 'participant', 'Nothing, honestly.')]);
    expect(snag.map((c) => c.signal_type).filter((t) => t !== 'no_issue_found')).toEqual([]);
    const long = await new LocalExtractor().extract([turn(0, 'interviewer', 'What, if anything, took longer than you expected?'), turn(1, 'participant', 'Nothing took long.')]);
    expect(long.map((c) => c.signal_type).filter((t) => t !== 'no_issue_found')).toEqual([]);
    // A request of the team is still reported as one.
    expect(describeQuote('Show me the free slots before I start, please.', 'desired_outcome').claim).toBe('The participant asked the team to show them the free slots before they start.');
  });

  it('takes what is wanted, to a wish question, as a want however much trouble it names, and skips the question said back (walkthrough 40)', async () => {
    const turn = (idx: number, role: 'interviewer' | 'participant', text: string) => ({ segment_id: `seg${idx}`, idx, role, speaker: null, start_ms: idx * 1000, end_ms: idx * 1000 + 900, text });
    const cards = async (answer: string) =>
      (await new LocalExtractor().extract([turn(0, 'interviewer', 'What would make the product more useful to you?'), turn(1, 'participant', answer)])).map((c) => [c.signal_type, c.quote]);
    expect(await cards('Turning a quote into an invoice with one click, keeping the client address and the line items, and getting the VAT right.')).toEqual([
      ['desired_outcome', 'Turning a quote into an invoice with one click, keeping the client address and the line items, and getting the VAT right.'],
    ]);
    expect(await cards('What would make YOU more useful? Ha. Ok: show the month on the report and actually download the file when I press export.')).toEqual([
      ['desired_outcome', 'Ok: show the month on the report and actually download the file when I press export.'],
    ]);
    // What went wrong, told in the past, is still what went wrong.
    expect((await cards('Honestly the export crashed twice last week, so a fix for that.')).map(([type]) => type)).toContain('critical_error');
  });

  it('heads sarcasm as sarcasm, never as the praise its words say (walkthrough 41)', async () => {
    const turn = (idx: number, role: 'interviewer' | 'participant', text: string) => ({ segment_id: `seg${idx}`, idx, role, speaker: null, start_ms: idx * 1000, end_ms: idx * 1000 + 900, text });
    const cards = async (answer: string) =>
      (await new LocalExtractor().extract([turn(0, 'interviewer', 'How do you find out where your application is?'), turn(1, 'participant', answer)])).map((c) => [c.signal_type, c.headline, c.claim]);
    expect(await cards('Oh, I love spending my Thursday mornings in a municipal lobby. Best part of my week.')).toEqual([
      ['emotional_response', 'Sarcastic about spending their Thursday mornings in a municipal lobby', 'The participant is sarcastic about spending their Thursday mornings in a municipal lobby.'],
    ]);
    expect(await cards('Forty minutes? For one ticket. Love that for me.')).toContainEqual(['emotional_response', 'Sarcastic remark: "Love that for me"', 'The participant said sarcastically: "Love that for me."']);
    // Said plainly, love is love.
    expect((await cards('I love using the calendar view, it saves me so much time.')).map(([, h]) => h)).toEqual(['Loves using the calendar view']);
    // "Nothing I like more … than …", and bare praise after trouble or beside more of it (walkthrough 45).
    expect(await cards("Oh, it's great. Love it. Nothing I like more after fourteen hours on deck than doing data entry in a Ford Ranger.")).toEqual([
      ['emotional_response', 'Sarcastic about doing data entry in a Ford Ranger', 'The participant is sarcastic about doing data entry in a Ford Ranger.'],
    ]);
    expect((await cards('So changes the same morning don\'t show up. Which, nobody told us. Great feature. Really love that one.')).filter(([type]) => type === 'emotional_response')).toEqual([
      ['emotional_response', 'Sarcastic remark: "Really love that one"', 'The participant said sarcastically: "Really love that one."'],
    ]);
    expect((await cards('Setup was quick. Great feature, the templates.')).map(([, h]) => h).join(' ')).not.toMatch(/sarcastic/i);
  });

  it('takes each item of a listed answer to a wish question as a want (walkthrough 47)', async () => {
    const turn = (idx: number, role: 'interviewer' | 'participant', text: string) => ({ segment_id: `seg${idx}`, idx, role, speaker: null, start_ms: idx * 1000, end_ms: idx * 1000 + 900, text });
    const cards = await new LocalExtractor().extract([
      turn(0, 'interviewer', 'What would make the product more useful to you?'),
      turn(1, 'participant', 'Two things. First, stop a class from ever taking more bookings than it has places. Second, a weekly summary that flags any class that went over capacity.'),
    ]);
    // A card each, not one run: two wishes.
    expect(cards.map((c) => [c.signal_type, c.quote])).toEqual([
      ['desired_outcome', 'First, stop a class from ever taking more bookings than it has places.'],
      ['desired_outcome', 'Second, a weekly summary that flags any class that went over capacity.'],
    ]);
    expect(cards[0].headline).toBe('Wants to stop a class from ever taking more bookings');
  });

  it('makes no card of a sentence that only points at what was said around it (walkthrough 49)', async () => {
    const turn = (idx: number, role: 'interviewer' | 'participant', text: string) => ({ segment_id: `seg${idx}`, idx, role, speaker: null, start_ms: idx * 1000, end_ms: idx * 1000 + 900, text });
    const quotes = async (question: string, answer: string) => (await new LocalExtractor().extract([turn(0, 'interviewer', question), turn(1, 'participant', answer)])).map((c) => c.quote);
    expect(await quotes('Why did you choose it?', 'It works offline. So for me this was the reason, only this.')).toEqual(['It works offline.']);
    expect(await quotes('What would make it more useful?', 'This is what I need, simple.')).toEqual([]);
  });

  it("takes someone else's feeling for theirs, not the participant's emotional response (walkthrough 45)", async () => {
    const turn = (idx: number, role: 'interviewer' | 'participant', text: string) => ({ segment_id: `seg${idx}`, idx, role, speaker: null, start_ms: idx * 1000, end_ms: idx * 1000 + 900, text });
    const types = async (answer: string) => (await new LocalExtractor().extract([turn(0, 'interviewer', 'What happened then?'), turn(1, 'participant', answer)])).map((c) => c.signal_type);
    expect(await types('My manager was not happy, the client was very not happy.')).not.toContain('emotional_response');
    expect(await types('I was furious, and my manager was not happy either.')).toContain('emotional_response');
    expect(await types('It was so frustrating.')).toContain('emotional_response');
  });

  it('claims a hedged wish as said, not as a judgement ("found it perhaps if…") (walkthrough 44)', () => {
    expect(describeQuote('Perhaps if, after I press the button, it told me in plain words where the file went.', 'desired_outcome').claim).toBe(
      'The participant said perhaps if, after they press the button, it told them in plain words where the file went.',
    );
    expect(describeQuote('Kind of annoying, honestly.', 'struggling_moment').claim).toBe('The participant found it kind of annoying.');
  });

  it('makes no card of a sentence about the interview itself ("earlier when you asked…, I misread it") (walkthrough 40)', async () => {
    const turn = (idx: number, role: 'interviewer' | 'participant', text: string) => ({ segment_id: `seg${idx}`, idx, role, speaker: null, start_ms: idx * 1000, end_ms: idx * 1000 + 900, text });
    const cards = await new LocalExtractor().extract([
      turn(0, 'interviewer', 'Is there anything else you would like to tell us?'),
      turn(1, 'participant', 'Oh wait, sorry, earlier when you asked what I used before, I misread it. I used a spreadsheet for invoices, not Word.'),
    ]);
    expect(cards.filter((c) => /asked|misread/.test(c.quote))).toEqual([]);
  });

  it('takes a note of trouble typed during a task as evidence, which the model reads as nothing', async () => {
    const task = 'Could you go ahead and export the monthly revenue report, as you normally would, and tell me what you notice along the way?';
    const turns = [[task, 'interviewer'], ['ok clicking Reports', 'participant'], ['nothing seems to happen, no spinner, no download', 'participant'], ['Cant tell which stores are included.', 'participant'], ['ok found it under reports', 'participant']].map(
      ([text, role], i) => ({ segment_id: `s${i}`, idx: i, role: role as 'interviewer' | 'participant', speaker: null, start_ms: i * 1000, end_ms: i * 1000 + 900, text }),
    );
    const cards = await new LocalExtractor().extract(turns);
    expect(cards.map((c) => [c.signal_type, c.quote, c.claim])).toEqual([
      ['critical_error', 'nothing seems to happen, no spinner, no download', 'The participant said nothing seems to happen, no spinner, no download.'],
      ['struggling_moment', 'Cant tell which stores are included.', "The participant can't tell which stores are included."],
    ]);
    // The same words answering a question are the model's to judge.
    expect((await new LocalExtractor().extract([{ ...turns[0], text: 'What did you use before?' }, turns[1]])).length).toBe(0);
  });

  it('says the moment of a quote late in a long turn as its card places it, not when the turn began', async () => {
    const long = 'Well, it started fine, I found the product page and picked a size and a colour and all of that was easy enough. Then the payment was declined with code 402 and I had no idea what that meant.';
    const turns = [
      { segment_id: 'q', idx: 0, role: 'interviewer' as const, speaker: null, start_ms: 0, end_ms: 10_000, text: 'What happened at checkout?' },
      { segment_id: 'a', idx: 1, role: 'participant' as const, speaker: null, start_ms: 10_000, end_ms: 40_000, text: long },
    ];
    const card = (await new LocalExtractor().extract(turns)).find((c) => c.quote.includes('declined'))!;
    const at = 10_000 + Math.round((30_000 * long.indexOf(card.quote)) / long.length);
    expect(card.observed_facts).toContain(`At ${clock(at)} in the interview`);
  });

  it("states the participant's goal in their words, without fillers or what came after it", async () => {
    const turn = (idx: number, role: 'interviewer' | 'participant', text: string) => ({ segment_id: 'seg', idx, role, speaker: null, start_ms: idx * 1000, end_ms: idx * 1000 + 900, text });
    const goals = async (text: string) => (await new LocalExtractor().extract([turn(0, 'interviewer', 'What happened?'), turn(1, 'participant', text)])).map((c) => c.user_goal);
    expect(await goals('I needed to pick up a, uh, a bookshelf and the app said unlocking and just spun for ages, it was awful.')).toContain('pick up a bookshelf');
    expect(await goals("I've been trying to find the cancel button for ages and I honestly can't find it anywhere, it's so annoying.")).toContain('find the cancel button');
  });

  it('keeps a long headline under the limit at a phrase boundary, never mid-word or with an ellipsis', () => {
    const quote = 'So what happened was I went into the settings page and then into billing and then into the invoices tab and then I still could not find where the tax number goes.';
    const h = headlineOf(quote)!;
    expect(h.length).toBeLessThanOrEqual(HEADLINE_MAX);
    expect(h).not.toMatch(/…|\b(the|a|and|into|of)$/);
    expect(quote).toContain(h.split(' ').slice(-1)[0]);
  });
});

describe('evidence cards from the local extractor', () => {
  let svc: TestService;
  let o: Awaited<ReturnType<typeof ownerWithProject>>;
  beforeAll(async () => {
    svc = await startTestService({ env: { WORKER: 'on' } });
    o = await ownerWithProject(svc, 'headlines@example.com');
  });
  afterAll(() => svc?.stop());

  it('carry headlines that summarise, not cut quotes, and third-person claims', async () => {
    const id = await importedInterview(svc, o, 'checkout.txt');
    const { signals } = (await o.call('GET', `/signals?session_id=${id}&limit=100`)).body as { signals: Array<{ quote: string; headline: string; claim: string }> };
    expect(signals.length).toBeGreaterThan(3);
    for (const s of signals) {
      expect(s.headline.length, s.headline).toBeLessThanOrEqual(HEADLINE_MAX);
      expect(s.headline).not.toContain('…');
      expect(s.headline).not.toMatch(/^(I|So|Um|Well)\b/);
      expect(s.claim).toMatch(/^The participant .+\.$/);
      expect(s.claim).not.toMatch(/\b(I|my|me)\b/);
    }
  });

  it("summarise the interview when nobody has, and leave a person's summary alone on reprocessing", async () => {
    const id = await importedInterview(svc, o, 'checkout.txt');
    const { signals } = (await o.call('GET', `/signals?session_id=${id}&limit=100`)).body as { signals: Array<{ headline: string }> };
    const summary = (await o.call('GET', `/sessions/${id}`)).body.session.summary as string;
    const [, kinds, points] = /^Evidence found: (.+?)\. Main points: (.+)\.$/.exec(summary)!;
    expect(kinds).toMatch(/^\d+ [a-z ]+(?:, \d+ [a-z ]+)*(?: and \d+ [a-z ]+)?$/);
    const counted = [...kinds.matchAll(/(\d+) [a-z]/g)].reduce((n, m) => n + Number(m[1]), 0);
    expect(counted).toBe(signals.length);
    const headlines = signals.map((s) => s.headline);
    expect(points.split('; ').filter((p) => headlines.includes(p))).toHaveLength(3);
    // The cards a researcher dismisses or corrects leave the summary or show in it.
    const first = (signals as Array<{ id: string; headline: string }>).find((c) => c.headline === points.split('; ')[0])!;
    expect((await o.call('POST', `/signals/${first.id}/dismiss`, { reason: 'Duplicate' })).status).toBe(200);
    const after = (await o.call('GET', `/sessions/${id}`)).body.session.summary as string;
    expect(after).not.toContain(first.headline);
    expect([...after.matchAll(/(\d+) [a-z]/g)].reduce((n, m) => n + Number(m[1]), 0)).toBe(signals.length - 1);
    const second = (signals as Array<{ id: string; headline: string }>).find((c) => after.includes(c.headline))!;
    expect((await o.call('PATCH', `/signals/${second.id}`, { headline: 'Discount field hidden below the fold' })).status).toBe(200);
    expect((await o.call('GET', `/sessions/${id}`)).body.session.summary).toContain('Discount field hidden below the fold');
    expect((await o.call('PATCH', `/sessions/${id}`, { summary: 'Our notes: checkout is the problem.' })).status).toBe(200);
    expect((await o.call('POST', `/sessions/${id}/reprocess`)).status).toBe(200);
    await settled(o.call, id);
    expect((await o.call('GET', `/sessions/${id}`)).body.session.summary).toBe('Our notes: checkout is the problem.');
  });

  it('invents no evidence from lines in other languages', async () => {
    const text = [
      'Entrevistador: ¿Cómo fue pagar la factura?',
      'Ana: No encontré el botón de pagar, estuve atascada veinte minutos y al final usé una hoja de cálculo.',
      'Interviewer: Und dann?',
      'Jonas: Ich konnte den Export nicht finden, das war wirklich frustrierend.',
      'Interviewer: Et après?',
      "Marie: Je voulais juste exporter le rapport mais rien ne marchait, c'était pénible.",
    ].join('\n');
    const id = await importedText(svc, o, 'multi.txt', text);
    expect((await o.call('GET', `/signals?session_id=${id}`)).body.signals).toEqual([]);
    expect((await o.call('GET', `/sessions/${id}`)).body.session.summary).toBe('Evidence found: none.');
  });

  it('keeps what did not happen, what others said and negated feelings out, and merges a moment told twice', async () => {
    const text = [
      'Interviewer: How was setting up payroll?',
      "Kim: Honestly it wasn't confusing at all.",
      'Interviewer: Were you nervous about the first run?',
      "Kim: I wasn't worried at all, to be fair.",
      'Interviewer: What if something went wrong?',
      'Kim: If it crashed during payroll I would lose my mind.',
      'Interviewer: What do others think?',
      'Kim: My manager says the dashboard is confusing and useless.',
      'Interviewer: Where did you get stuck?',
      "Kim: I couldn't find the export button anywhere.",
      'Interviewer: Anything else?',
      "Kim: Like I said, I just couldn't find that export button anywhere on the page, it took me ages.",
    ].join('\n');
    const id = await importedText(svc, o, 'payroll.txt', text);
    const signals = (await o.call('GET', `/signals?session_id=${id}&limit=100`)).body.signals as Array<{ signal_type: string; quote: string }>;
    const of = (needle: string) => signals.filter((x) => x.quote.includes(needle)).map((x) => x.signal_type);
    expect(of('confusing at all')).not.toContain('struggling_moment');
    expect(of('worried')).not.toContain('emotional_response');
    expect(of('crashed during payroll')).not.toContain('critical_error');
    expect(of('My manager says')).toEqual([]);
    const exportStruggles = signals.filter((x) => x.signal_type === 'struggling_moment' && /export button/.test(x.quote));
    expect(exportStruggles.map((x) => x.quote)).toEqual(["Like I said, I just couldn't find that export button anywhere on the page, it took me ages."]);
  });
});
