import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './helpers/service.ts';
import { importedText, ownerWithProject } from './helpers/fixtures.ts';
import { evaluateLocalExtractor, INDEPENDENT, labelledTranscripts, matches, TUNING } from './helpers/extractor-eval.ts';
import fs from 'node:fs';

let svc: TestService;
let o: Awaited<ReturnType<typeof ownerWithProject>>;

beforeAll(async () => {
  svc = await startTestService({ env: { WORKER: 'on' } });
  o = await ownerWithProject(svc, 'rest-extraction@example.com');
});
afterAll(async () => {
  await svc?.stop();
});

/** Every card of an interview, page by page, as an API client reads them. */
async function cardsOf(sessionId: string) {
  const cards: Array<{ signal_type: string; quote: string }> = [];
  for (let offset = 0; ; offset += 100) {
    const res = await o.call('GET', `/signals?session_id=${sessionId}&limit=100&offset=${offset}`);
    expect(res.status).toBe(200);
    cards.push(...res.body.signals);
    if (res.body.signals.length < 100) return cards;
  }
}

describe('evidence from transcripts imported through REST', () => {
  it.each([['tuning', TUNING], ['independent', INDEPENDENT]])('scores on the %s set as the extractor does on its own: the pipeline drops or rewrites nothing', async (_, dir) => {
    const direct = await evaluateLocalExtractor(dir);
    let labelled = 0, found = 0, proposed = 0, correct = 0;
    for (const { name, file, labels } of labelledTranscripts(dir)) {
      const id = await importedText(svc, o, name, fs.readFileSync(file, 'utf8'));
      const cards = (await cardsOf(id)).map((c) => ({ signal_type: c.signal_type, quote: c.quote }));
      labelled += labels.length;
      found += labels.filter((l) => cards.some((c) => matches(c, l))).length;
      proposed += cards.length;
      correct += cards.filter((c) => labels.some((l) => matches(c, l))).length;
    }
    console.log(`${_}: direct ${direct.recall.toFixed(3)}/${direct.precision.toFixed(3)}, REST ${(found / labelled).toFixed(3)}/${(correct / proposed).toFixed(3)}`);
    expect({ recall: found / labelled, precision: correct / proposed }).toEqual({ recall: direct.recall, precision: direct.precision });
  }, 240_000);
});
