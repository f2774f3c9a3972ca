import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './helpers/service.ts';
import { importedText, ownerWithProject, postForm } from './helpers/fixtures.ts';
import { form } from './helpers/media.ts';
import { SENTENCE_MAX_CHARS, sentences } from '../core/sentences.ts';
import { LocalExtractor } from '../tools/evidence/local-extractor.ts';
import { parseTranscript } from '../tools/interviews/transcript-formats.ts';

/**
 * One sentence splitter (Intl.Segmenter), one HTML parser (htmlparser2) and entity decoding
 * for cue formats, seen through what users get back: quotes, previews and installation checks.
 */
let svc: TestService;
let o: Awaited<ReturnType<typeof ownerWithProject>>;
let site: http.Server;
let origin: string;

const pages: Record<string, string> = {
  '/tricky': `<!doctype html><html><head>
    <!-- <title>Old title</title> <meta property="og:title" content="Commented out"> -->
    <meta property="og:title" content="Fast & simple -> try it">
    <meta name="description" content='Plans from $3.50 > "nothing" &amp; more'>
    <title>Real title</title></head><body>
    <!-- <script src="${'BASE'}/sdk/widget.js" data-project-key="KEY" async></script> -->
    <script>document.write('<script src="${'BASE'}/sdk/widget.js" data-project-key="KEY"><\\/script>')</script>
  </body></html>`,
  '/installed': `<!doctype html><html><head><title>Shop</title></head><body>
    <script data-note="a > b" src="${'BASE'}/sdk/widget.js" data-project-key="KEY" async></script></body></html>`,
};

beforeAll(async () => {
  svc = await startTestService({ env: { WORKER: 'on', OUTBOUND_ALLOW_LOOPBACK: 'true' } });
  o = await ownerWithProject(svc, 'parsing@example.com');
  site = http.createServer((req, res) => {
    const body = pages[req.url ?? ''];
    if (!body) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body.replaceAll('BASE', svc.url).replaceAll('KEY', o.project.public_key));
  });
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', () => r()));
  origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await svc?.stop();
  await new Promise((r) => site?.close(r));
});

async function importText(name: string, text: string) {
  const id = await importedText(svc, o, name, text);
  const transcript = (await o.call('GET', `/sessions/${id}/transcript`)).body;
  const signals = (await o.call('GET', `/signals?session_id=${id}`)).body.signals as Array<{ quote: string }>;
  return { transcript, quotes: signals.map((s) => s.quote) };
}

describe('sentences', () => {
  it('keeps prices, decimals and abbreviations inside one quoted sentence', async () => {
    const { quotes } = await importText('price.txt', [
      'Interviewer: What happened when you paid?',
      'Kim: I was really frustrated because it charged me $3.50 twice and I could not find the refund button. Mr. Lee in support said it happens a lot.',
    ].join('\n'));
    expect(quotes.length).toBeGreaterThan(0);
    const charged = quotes.find((q) => q.includes('charged me'));
    expect(charged).toBe('I was really frustrated because it charged me $3.50 twice and I could not find the refund button.');
    for (const q of quotes) expect(q).not.toMatch(/\$3\.$/);
  });

  it('keeps a quoted message of several sentences in the sentence that quotes it, and leaves a stray quotation mark alone', () => {
    const said = (t: string) => sentences(t).map((x) => x.text);
    expect(said('I hit save, and it said "Session expired. Please log in again." And all sixty were gone.')).toEqual([
      'I hit save, and it said "Session expired. Please log in again."',
      'And all sixty were gone.',
    ]);
    expect(said('It said “Payment failed. Try again.” So I tried again.')).toEqual(['It said “Payment failed. Try again.”', 'So I tried again.']);
    expect(said('He said "no. And then I left. It was bad. The end.')).toEqual(['He said "no.', 'And then I left.', 'It was bad.', 'The end.']);
    // A "?" inside an address is no end of a sentence (walkthrough 36: a workaround cut in two at "?month=10").
    expect(said('Now I just bookmark the Home URL with ?month=10 on the end and it opens on the right month. Nice!')).toEqual([
      'Now I just bookmark the Home URL with ?month=10 on the end and it opens on the right month.',
      'Nice!',
    ]);
    expect(said('Really? Yes.')).toEqual(['Really?', 'Yes.']);
  });

  it('says why a transcript in another language gives no evidence, and says nothing of an English one', async () => {
    const french = [
      "Intervieweur : Bonjour Camille, merci d'être là. Comment utilisez-vous l'application de facturation ?",
      "Camille : Chaque fin de mois, j'envoie les factures à mes clients. Le problème, c'est que l'export PDF plante dès qu'il y a plus de vingt lignes.",
      'Intervieweur : Que faites-vous dans ce cas ?',
      'Camille : Je copie tout dans Word et je refais la mise en page à la main. Ça me prend une heure à chaque fois, et je trouve ça vraiment pénible.',
    ].join('\n');
    const id = await importedText(svc, o, 'fr.txt', french);
    const processing = (await o.call('GET', `/sessions/${id}/processing`)).body;
    expect(processing).toMatchObject({ status: 'processed', warnings: [{ step: 'extracting', code: 'language_unsupported', message: expect.stringContaining('not in English'), action: expect.stringContaining('model') }] });
    expect((await o.call('GET', `/signals?session_id=${id}`)).body.signals).toEqual([]);
    for (const [name, text] of [
      ['it.txt', 'Intervistatore: Come va?\nGiulia: Non mi piace molto, anche perché questo export non funziona e sono stanca.'],
      ['ja.txt', 'Interviewer: How was it?\nYuki: エクスポートが動かなくて、とても困りました。毎回手で直しています。'],
    ]) {
      const other = await importedText(svc, o, name, text);
      expect((await o.call('GET', `/sessions/${other}/processing`)).body.warnings.map((w: { code: string }) => w.code), name).toEqual(['language_unsupported']);
    }
    const english = await importedText(svc, o, 'en.txt', 'Interviewer: How was the weather?\nKim: Lovely, thanks.');
    expect((await o.call('GET', `/sessions/${english}/processing`)).body.warnings).toEqual([]);
  });

  it('finds the goal said at the start of a long turn for a moment far into it', async () => {
    const filler = 'We talked about the weather and the school run and the new cafe on the corner for a while. '.repeat(30);
    const turn = `I was trying to pay our supplier before the weekend. ${filler}Then the export button was greyed out and I couldn't find any way to send it.`;
    const cards = await new LocalExtractor().extract([{ segment_id: 's', idx: 0, role: 'participant', speaker: null, start_ms: 0, end_ms: 1000, text: turn }]);
    const late = cards.find((c) => c.quote.includes('greyed out'));
    expect(late?.user_goal).toBe('pay our supplier');
  });

  it('reads a turn transcribed without punctuation for pages in pieces: every quote short, verbatim and from its turn', async () => {
    const story = 'so I tried to pay the supplier and the export kept failing and I could not find the button anywhere so I gave up and rang the bank ';
    const turn = story.repeat(400).trim();
    const { transcript, quotes } = await importText('runon.txt', `Interviewer: Tell me about it.\nDana: ${turn}`);
    expect(transcript.segments.find((x: { role: string }) => x.role === 'participant').text).toBe(turn);
    expect(quotes.length).toBeGreaterThan(0);
    for (const q of quotes) {
      expect(turn).toContain(q);
      expect(q.length).toBeLessThanOrEqual(3 * SENTENCE_MAX_CHARS);
    }
    // With nowhere to cut but inside a run of emoji, a piece never ends on half of one.
    const emoji = sentences('😀'.repeat(400));
    expect(emoji.map((x) => x.text).join('')).toBe('😀'.repeat(400));
    for (const x of emoji) expect(x.text).not.toMatch(/^[\uDC00-\uDFFF]|[\uD800-\uDBFF]$/);
    // Split at a clause where there is one, never inside a word.
    const pieces = sentences(turn);
    expect(pieces.length).toBeGreaterThan(50);
    for (const x of pieces) {
      expect(x.text.length).toBeLessThanOrEqual(SENTENCE_MAX_CHARS);
      expect(turn.slice(x.start, x.start + x.text.length)).toBe(x.text);
      expect(x.text).toMatch(/^(?:and|but|so|because|then)\b/);
    }
  });
});

describe('cue formats', () => {
  it('decodes character references in WebVTT and SRT text and speakers', async () => {
    const vtt = await importText('call.vtt', [
      'WEBVTT',
      '',
      '00:00:01.000 --> 00:00:04.000',
      '<v Interviewer>How did exporting go?',
      '',
      '00:00:04.000 --> 00:00:09.000',
      '<v Kim &amp; Co>I was so frustrated: Reports &amp; Exports was broken &lt;again&gt; and I couldn&apos;t find the button.',
    ].join('\n'));
    const last = vtt.transcript.segments.at(-1);
    expect(last.speaker).toBe('Kim & Co');
    expect(last.text).toBe("I was so frustrated: Reports & Exports was broken <again> and I couldn't find the button.");
    expect(vtt.quotes.join(' ')).not.toMatch(/&amp;|&lt;|&apos;/);
    expect(vtt.quotes.some((q) => q.includes('Reports & Exports'))).toBe(true);

    const srt = await importText('call.srt', ['1', '00:00:01,000 --> 00:00:03,000', 'Kim: Billing &amp; invoices were confusing&nbsp;to find.', ''].join('\n'));
    expect(srt.transcript.segments[0].text).toBe('Billing & invoices were confusing to find.');
  });

  it('refuses a cue that ends before it starts, naming it, and keeps no colour codes pasted from a terminal', async () => {
    const backwards = ['WEBVTT', '', '00:00:01.000 --> 00:00:03.000', '<v Kim>It was fine.', '', '00:00:05.000 --> 00:00:01.000', '<v Kim>Then it broke.'].join('\n');
    const res = await postForm(svc, o.token, `${o.P}/sessions/import-transcript`, form({ transcript: { buffer: Buffer.from(backwards), filename: 'back.vtt', type: 'text/vtt' } }));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'transcript_unreadable', error: expect.stringContaining('cue 2 ("00:00:05.000 --> 00:00:01.000") ends before it starts') });
    const { transcript } = await importText('ansi.txt', 'Interviewer: What happened?\nKim: the export \x01\x02failed \x1b[31mred\x1b[0m and I gave up.\x0bInterviewer: Then?\x0cKim: I rang them.');
    expect(transcript.segments.map((x: { text: string }) => x.text)).toEqual(['What happened?', 'the export failed red and I gave up.', 'Then?', 'I rang them.']);
  });
});

describe('speaker lines as other tools write them (a new user\'s trial)', () => {
  const turns = (t: { segments: Array<{ speaker: string | null; role: string; start_ms: number; text: string }> }) => t.segments.map((x) => [x.speaker, x.role, x.start_ms, x.text]);
  const said = [
    ['Interviewer', 'interviewer', 1000, 'How do refills go for you?'],
    ['Maria Lopez', 'participant', 9000, 'Honestly the app logs me out every single time.'],
    ['Interviewer', 'interviewer', 20000, 'What do you do then?'],
    ['Maria Lopez', 'participant', 25000, 'I call the pharmacy the next morning.'],
  ];

  it('reads "Name (hh:mm:ss): words", Otter\'s "Name  0:09" line above the words, and "00:00:05 Name" above them', async () => {
    const inline = said.map(([who, , at, words]) => `${who} (00:00:${String(Number(at) / 1000).padStart(2, '0')}): ${words}`).join('\n');
    const otter = said.map(([who, , at, words]) => `${who}  0:${String(Number(at) / 1000).padStart(2, '0')}\n${words}`).join('\n\n');
    const above = said.map(([who, , at, words]) => `00:00:${String(Number(at) / 1000).padStart(2, '0')} ${who}\n${words}`).join('\n');
    for (const [name, text] of [['inline.txt', inline], ['otter.txt', otter], ['above.txt', above]]) {
      const id = await importedText(svc, o, name, text);
      const transcript = (await o.call('GET', `/sessions/${id}/transcript`)).body;
      expect(turns(transcript), name).toEqual(said);
      const status = (await o.call('GET', `/sessions/${id}/processing`)).body;
      // The three layouts hold the same turns: the second and third are told they were imported before.
      expect(status.warnings.filter((w: { code: string }) => w.code !== 'already_imported'), name).toEqual([]);
      expect((await o.call('GET', `/sessions/${id}`)).body.session.participant_name, name).toBe('Maria Lopez');
      const quotes = ((await o.call('GET', `/signals?session_id=${id}`)).body.signals as Array<{ quote: string }>).map((c) => c.quote);
      expect(quotes.join(' '), name).not.toMatch(/Interviewer|Maria Lopez|\d:\d\d/);
    }
  });

  it('reads labels written in Markdown, in brackets, as list items or quotes, on a line of their own, or as bare names above each turn', () => {
    const want = [
      ['Interviewer', 'How do refills go for you?'],
      ['Maria', 'Honestly the app logs me out every single time.'],
      ['Interviewer', 'What do you do then?'],
    ];
    const layouts = {
      bold: '**Interviewer:** How do refills go for you?\n**Maria:** Honestly the app logs me out every single time.\n**Interviewer**: What do you do then?',
      bracket: '[Interviewer] How do refills go for you?\n[Maria] Honestly the app logs me out every single time.\n[Interviewer] What do you do then?',
      listed: '- Interviewer: How do refills go for you?\n- Maria: Honestly the app logs me out every single time.\n> Interviewer: What do you do then?',
      ownLine: 'Interviewer:\nHow do refills go for you?\n\nMaria:\nHonestly the app logs me out\nevery single time.\n\nInterviewer:\nWhat do you do then?',
      bareNames: 'Interviewer\nHow do refills go for you?\n\nMaria\nHonestly the app logs me out every single time.\n\nInterviewer\nWhat do you do then?',
    };
    for (const [name, text] of Object.entries(layouts)) expect(parseTranscript(text).segments.map((x) => [x.speaker, x.text]), name).toEqual(want);
    // A bracketed sound is no speaker, and short answers on lines of their own are no names.
    expect(parseTranscript('Kim: It froze.\n[inaudible] and then it came back.').segments.map((x) => x.speaker)).toEqual(['Kim']);
    expect(parseTranscript('Okay\nThe export failed.\nYes\nIt did.').segments.map((x) => x.speaker)).toEqual([null]);
  });

  it('reads a document\'s title and "Participant:", "Interviewer:", "Date:" lines above the conversation as its details, not as turns', async () => {
    const doc = [
      'Gradebook study – Interview 4',
      'Participant: Carol Hendricks, Year 9 English teacher',
      'Interviewer: Sam',
      'Date: 14 March',
      '',
      '**Sam:** How does grading go?',
      '',
      '**Carol:** Not well. The grade screen logged me out and all sixty marks were gone.',
      '',
      '**Sam:** What did you do?',
      '',
      '**Carol:** I typed them all again from my paper notes.',
    ].join('\n');
    const id = await importedText(svc, o, 'carol.md', doc);
    const transcript = (await o.call('GET', `/sessions/${id}/transcript`)).body;
    expect(transcript.segments.map((x: { speaker: string; role: string }) => [x.speaker, x.role])).toEqual([
      ['Sam', 'interviewer'],
      ['Carol', 'participant'],
      ['Sam', 'interviewer'],
      ['Carol', 'participant'],
    ]);
    const session = (await o.call('GET', `/sessions/${id}`)).body.session;
    expect(session.participant_name).toBe('Carol Hendricks');
    // "Date: 14 March" names no year: when it took place stays unknown.
    expect(session.started_at).toBeNull();
    const dated = await importedText(svc, o, 'dated.md', doc.replace('Date: 14 March', 'Date: 14 March 2025'));
    expect((await o.call('GET', `/sessions/${dated}`)).body.session.started_at).toBe(new Date(Date.parse('14 March 2025')).toISOString());
    // "Interviewer: Hi Carol" opens the conversation; "Interviewer: Sam" where turns are labelled "Interviewer:" is a turn.
    const speakersOf = (text: string) => parseTranscript(text).segments.map((x) => [x.speaker, x.text]);
    expect(speakersOf('Interviewer: Hi Carol\nCarol: Hi.')).toEqual([['Interviewer', 'Hi Carol'], ['Carol', 'Hi.']]);
    expect(speakersOf('Date: 3 May\nInterviewer: Hi, thanks for joining\nParticipant: Happy to.')).toEqual([['Interviewer', 'Hi, thanks for joining'], ['Participant', 'Happy to.']]);
    expect(speakersOf('Interviewer: Sam\nParticipant: Hi Sam.\nInterviewer: How was it?')).toEqual([['Interviewer', 'Sam'], ['Participant', 'Hi Sam.'], ['Interviewer', 'How was it?']]);
  });

  it('reads the exports of Rev, Google Meet, Dovetail and a video editor\'s captions, leaving out what the tool wrote around the conversation', () => {
    const turnsOf = (text: string) => parseTranscript(text).segments.map((x) => [x.speaker, x.start_ms, x.text]);
    const rev = 'Interview_P7.m4a\n\nThis transcript was exported on Apr 12, 2025 - view latest version here.\n\nSpeaker 1 (00:00:00):\nThanks for doing this.\n\nSpeaker 2 (00:00:04):\nHappy to. The panels stopped reporting last week.';
    expect(turnsOf(rev)).toEqual([['Speaker 1', 0, 'Thanks for doing this.'], ['Speaker 2', 4000, 'Happy to. The panels stopped reporting last week.']]);
    const meet = [
      'School app research - Aisha Bello (2025-03-11 16:02 GMT) - Transcript',
      'Attendees',
      'Aisha Bello, Tom Whitfield',
      'Transcript',
      'This editable transcript was computer generated and might contain errors.',
      '00:00:00',
      '',
      'Tom Whitfield: Hi Aisha, how do payments go?',
      'Aisha Bello: Badly. The coach payment was on another app.',
      '00:05:00',
      'Tom Whitfield: What happened then?',
      'Aisha Bello: The office rang me two days before the trip.',
      'Meeting ended after 00:09:48 👋',
    ].join('\n');
    const heard = parseTranscript(meet).segments;
    expect(heard.map((x) => x.speaker)).toEqual(['Tom Whitfield', 'Aisha Bello', 'Tom Whitfield', 'Aisha Bello']);
    expect(heard[2].start_ms).toBe(300_000);
    expect(heard[3].text).toBe('The office rang me two days before the trip.');
    expect(parseTranscript(meet).header.date).toBe(new Date(Date.parse('2025-03-11 16:02 GMT')).toISOString());
    // A tool's export date is not when the interview was held.
    expect(parseTranscript(rev).header.date).toBeNull();
    const dovetail = '# Interview: Rosa Delgado – Kitchen Manager\n\n**Project:** Supplier ordering\n**Date:** 14 March 2025\n**Interviewer:** Kofi Mensah\n**Participant:** Rosa Delgado\n**Tags:** `inventory`\n\n---\n\n## Transcript\n\n**Kofi Mensah** [00:00:04]\nHow does ordering work?\n\n**Rosa Delgado** [00:00:09]\nSure. We order from five suppliers, by phone mostly.';
    const kitchen = parseTranscript(dovetail);
    expect(kitchen.segments.map((x) => [x.speaker, x.start_ms, x.text])).toEqual([['Kofi Mensah', 4000, 'How does ordering work?'], ['Rosa Delgado', 9000, 'Sure. We order from five suppliers, by phone mostly.']]);
    expect(kitchen.header).toEqual({ interviewer: 'Kofi Mensah', participant: 'Rosa Delgado', date: new Date(Date.parse('14 March 2025')).toISOString() });
    const srt = '1\n00:00:00,000 --> 00:00:03,000\n[MUSIC]\n\n2\n00:00:03,400 --> 00:00:06,900\n[JENNA] Okay, we\'re rolling.\n\n3\n00:00:07,300 --> 00:00:11,800\n[SAM] Of course. Excuse the mess.';
    expect(turnsOf(srt)).toEqual([['Jenna', 3400, "Okay, we're rolling."], ['Sam', 7300, 'Of course. Excuse the mess.']]);
  });

  it("joins a speaker's consecutive caption cues into one turn, as Zoom and Teams cut them", () => {
    const zoom = [
      'WEBVTT', '',
      '1', '00:00:02.400 --> 00:00:05.100', 'Anna: How did the milking report go?', '',
      '2', '00:00:05.600 --> 00:00:09.000', 'Gerrit van Dijk: The robot sent the alarm at night, and the app', '',
      '3', '00:00:09.000 --> 00:00:12.500', 'Gerrit van Dijk: showed sync failed, code 504. Great technology.', '',
      '4', '00:00:30.000 --> 00:00:31.000', 'Gerrit van Dijk: Anyway.', '',
      '5', '00:00:31.500 --> 00:00:33.000', 'Anna: Then what?',
    ].join('\n');
    expect(parseTranscript(zoom).segments.map((x) => [x.speaker, x.start_ms, x.end_ms, x.text])).toEqual([
      ['Anna', 2400, 5100, 'How did the milking report go?'],
      ['Gerrit van Dijk', 5600, 12500, 'The robot sent the alarm at night, and the app showed sync failed, code 504. Great technology.'],
      // After a long pause, a new turn.
      ['Gerrit van Dijk', 30000, 31000, 'Anyway.'],
      ['Anna', 31500, 33000, 'Then what?'],
    ]);
    const teams = 'WEBVTT\n\nab1/1-0\n00:00:01.000 --> 00:00:03.000\n<v Lena Park>The bus icon sat in the depot</v>\n\nab1/2-0\n00:00:03.000 --> 00:00:05.000\n<v Lena Park>for ten minutes.</v>';
    expect(parseTranscript(teams).segments.map((x) => x.text)).toEqual(['The bus icon sat in the depot for ten minutes.']);
  });

  it('says a moment of a transcript with no times is at about a time, estimated', async () => {
    const id = await importedText(svc, o, 'untimed.txt', 'Interviewer: How did paying go?\nDana: The pay button stayed grey and I could not pay the invoice at all, which was really frustrating.');
    const cards = (await o.call('GET', `/signals?session_id=${id}`)).body.signals as Array<{ observed_facts_json: string }>;
    expect(cards.length).toBeGreaterThan(0);
    for (const c of cards) expect(JSON.parse(c.observed_facts_json)).toContainEqual(expect.stringMatching(/^At about \d+:\d{2} in the interview \(estimated: the transcript has no times\)$/));
    // A transcript with its own times states them.
    const timed = await importedText(svc, o, 'timed.srt', '1\n00:00:05,000 --> 00:00:08,000\nInterviewer: How did paying go?\n\n2\n00:00:09,000 --> 00:00:15,000\nDana: The pay button stayed grey and I could not pay the invoice at all, which was really frustrating.');
    const facts = ((await o.call('GET', `/signals?session_id=${timed}`)).body.signals as Array<{ observed_facts_json: string }>).flatMap((c) => JSON.parse(c.observed_facts_json) as string[]);
    expect(facts).toContainEqual(expect.stringMatching(/^At 0:\d{2} in the interview$/));
  });

  it('says when more than one speaker is taken for the participant', async () => {
    const rev = 'Speaker 1 (00:00:02):\nHow do you order stock?\n\nSpeaker 2 (00:00:05):\nBy phone mostly, the portal times out.\n\nSpeaker 3 (00:00:09):\nAnd the error is not even on the main screen.\n\nSpeaker 1 (00:00:12):\nWhat do you do then?\n\nSpeaker 2 (00:00:14):\nI call the rep.';
    const id = await importedText(svc, o, 'rev.txt', rev);
    expect((await o.call('GET', `/sessions/${id}/processing`)).body.warnings).toEqual([
      expect.objectContaining({ step: 'importing', code: 'several_participants', message: expect.stringContaining('Speaker 2, Speaker 3'), action: expect.stringContaining('Interviewer:') }),
    ]);
    // One interviewer and one participant: nothing to say.
    const two = await importedText(svc, o, 'two.txt', 'Interviewer: How do you order stock?\nDana: By phone mostly, the portal times out.');
    expect((await o.call('GET', `/sessions/${two}/processing`)).body.warnings).toEqual([]);
  });

  it('says notes written about the participant are not their words', async () => {
    const notes = 'Spoke with Jo from finance on Tuesday. She said the CSV export keeps timing out past a year of data. She exports month by month and stitches them in Excel. She really wants a scheduled export. She likes the new dashboard.';
    const id = await importedText(svc, o, 'notes.txt', notes);
    expect((await o.call('GET', `/sessions/${id}/processing`)).body.warnings).toEqual([expect.objectContaining({ code: 'notes_not_transcript', action: expect.stringContaining('/signals') })]);
  });

  it('keeps a transcript imported twice, and says so on the second, naming the first', async () => {
    const text = 'Interviewer: How do refills go for you?\nDana: The app logs me out every single time and I hate it.';
    const first = await importedText(svc, o, 'dana.txt', text);
    expect((await o.call('GET', `/sessions/${first}/processing`)).body.warnings).toEqual([]);
    // The same turns in another layout are the same transcript.
    const again = await importedText(svc, o, 'dana-again.md', text.replace(/^(\w+):/gm, '**$1:**'));
    expect((await o.call('GET', `/sessions/${again}/processing`)).body.warnings).toEqual([
      expect.objectContaining({ step: 'importing', code: 'already_imported', message: expect.stringContaining(`as interview ${first} (Dana)`) }),
    ]);
    expect((await o.call('GET', `/sessions/${first}/processing`)).body.warnings).toEqual([]);
  });

  it('warns when no line names its speaker, and takes no role label for the participant\'s name', async () => {
    const id = await importedText(svc, o, 'bare.txt', 'How do refills go for you?\nHonestly the app logs me out every single time and I hate it.');
    expect((await o.call('GET', `/sessions/${id}/processing`)).body.warnings).toEqual([expect.objectContaining({ step: 'importing', code: 'no_speakers', action: expect.stringContaining('Maria: …') })]);
    const labelled = await importedText(svc, o, 'qa.txt', 'Q: How do refills go for you?\nA: Honestly the app logs me out every single time.');
    expect((await o.call('GET', `/sessions/${labelled}`)).body.session.participant_name).toBeNull();
    expect((await o.call('GET', `/sessions/${labelled}/processing`)).body.warnings).toEqual([]);
    const asked = await importedText(svc, o, 'questions.txt', 'Interviewer: How do refills go for you?\nInterviewer: What do you do then?');
    expect((await o.call('GET', `/sessions/${asked}/processing`)).body).toMatchObject({ evidence_count: 0, warnings: [expect.objectContaining({ code: 'no_participant_turns' })] });
  });
});

describe('HTML pages', () => {
  it('reads meta tags with ">" and "&" inside quoted values and ignores commented-out tags', async () => {
    const res = await o.call('POST', '/public-listings/preview', { url: `${origin}/tricky` });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.title).toBe('Fast & simple -> try it');
    expect(res.body.description).toBe('Plans from $3.50 > "nothing" & more');
  });

  it('does not count a commented-out or script-written widget tag as installed, and finds a real one', async () => {
    const tricky = await o.call('POST', '/widget-installation/verify', { url: `${origin}/tricky` });
    expect(tricky.status).toBe(200);
    expect(tricky.body).toMatchObject({ installed: false, problems: [expect.objectContaining({ code: 'snippet_missing' })] });
    const real = await o.call('POST', '/widget-installation/verify', { url: `${origin}/installed` });
    expect(real.body.problems.map((p: { code: string }) => p.code)).not.toContain('snippet_missing');
    expect(real.body.problems.map((p: { code: string }) => p.code)).not.toContain('snippet_wrong_host');
  });
});
