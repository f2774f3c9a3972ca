import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { evaluateLocalExtractor, HELDOUT, INDEPENDENT, labelledTranscripts, turnsOf, type Evaluation } from './helpers/extractor-eval.ts';
import { MODEL_FILE, storedModel, type StoredModel } from '../tools/evidence/sentence-model.ts';
import { TRAINING_SETS } from '../training/corpus.ts';
import { fit } from '../training/fit.ts';

const HELDOUT_FLOOR = { recall: 0.5, precision: 0.55 };
const INDEPENDENT_FLOOR = { recall: 0.3, precision: 0.55 };
import { SIGNAL_TYPES } from '../tools/evidence/types.ts';
import { locate } from '../tools/evidence/locate.ts';
import { assignRoles, parseTranscript } from '../tools/interviews/transcript-formats.ts';

const pct = (n: number) => `${Math.round(n * 100)}%`;
const perTypeTable = (r: Evaluation) =>
  ['| type | recall | precision |', '|-|-|-|', ...Object.entries(r.perType).sort(([a], [b]) => a.localeCompare(b)).map(([type, t]) => `| ${type} | ${t.found}/${t.labelled} | ${t.correct}/${t.proposed} |`)].join('\n');

describe('the local extractor against labelled transcripts', () => {
  it('recalls at least 80% of the labelled evidence in the first fixtures, in every signal type', async () => {
    const r = await evaluateLocalExtractor();
    console.log(`local extractor, first fixtures (trained on): recall ${pct(r.recall)}, precision ${pct(r.precision)}`);
    expect(r.recall).toBeGreaterThanOrEqual(0.8);
    expect(r.precision).toBeGreaterThanOrEqual(0.7);
    for (const type of SIGNAL_TYPES) expect(r.perType[type]?.labelled, type).toBeGreaterThan(0);
  });

  it('ships the model that the labelled training transcripts produce (retrain after changing them: npm run train:extractor)', { timeout: 600_000 }, () => {
    const shipped = JSON.parse(fs.readFileSync(MODEL_FILE, 'utf8')) as StoredModel;
    const retrained = storedModel(fit(TRAINING_SETS.flatMap((dir) => labelledTranscripts(dir)), shipped.threshold));
    expect(retrained.trained_on).toEqual(shipped.trained_on);
    expect(retrained.features).toEqual(shipped.features);
    expect(retrained.weights === shipped.weights, 'the shipped weights differ from a retrain').toBe(true);
    expect(shipped.trained_on.labels).toBeGreaterThanOrEqual(1000);
  });

  it('reports recall and precision per type on the held-out set (test/fixtures/heldout, never trained or tuned on)', async () => {
    const r = await evaluateLocalExtractor(HELDOUT);
    console.log(`local extractor, held-out set: recall ${pct(r.recall)}, precision ${pct(r.precision)}\n${perTypeTable(r)}`);
    for (const type of SIGNAL_TYPES) expect(r.perType[type]?.labelled, type).toBeGreaterThan(0);
    // Floors a little below the figures measured with the sentence model (docs/extractor-quality.md),
    // so a change cannot make it worse unnoticed.
    expect(r.recall).toBeGreaterThanOrEqual(HELDOUT_FLOOR.recall);
    expect(r.precision).toBeGreaterThanOrEqual(HELDOUT_FLOOR.precision);
  });

  it('reports recall and precision per type on interviews labelled without the training guide (test/fixtures/independent)', async () => {
    const r = await evaluateLocalExtractor(INDEPENDENT);
    console.log(`local extractor, independently labelled set: recall ${pct(r.recall)}, precision ${pct(r.precision)}\n${perTypeTable(r)}`);
    expect(r.recall).toBeGreaterThanOrEqual(INDEPENDENT_FLOOR.recall);
    expect(r.precision).toBeGreaterThanOrEqual(INDEPENDENT_FLOOR.precision);
  });

  it('has labels that are verbatim spans of a participant turn, with a known signal type', () => {
    for (const dir of [...TRAINING_SETS, HELDOUT, INDEPENDENT]) {
      for (const { name, file, labels } of labelledTranscripts(dir)) {
        const said = turnsOf(file).filter((t) => t.role === 'participant').map((t) => t.text);
        expect(labels.length, name).toBeGreaterThan(0);
        for (const l of labels) {
          expect(SIGNAL_TYPES, `${name}: ${l.type}`).toContain(l.type);
          expect(said.some((t) => t.includes(l.quote)), `${name}: "${l.quote}" is not in any participant turn`).toBe(true);
        }
      }
    }
  });
});

describe('transcript parsing and quote location', () => {
  it('detects every format and the interviewer', () => {
    const text = parseTranscript('[00:01:02] Host: How was setup?\n[00:01:10] Ana: Easy enough.\nIt took a minute.');
    expect(text.format).toBe('text');
    expect(text.segments).toEqual([
      { speaker: 'Host', text: 'How was setup?', start_ms: 62_000, end_ms: 70_000 },
      { speaker: 'Ana', text: 'Easy enough. It took a minute.', start_ms: 70_000, end_ms: expect.any(Number) },
    ]);
    expect(assignRoles(text.segments)).toEqual(['interviewer', 'participant']);
    const q = parseTranscript('Lee: What do you do?\nMo: I run a bakery.\nLee: Why?\nMo: I love bread.');
    expect(assignRoles(q.segments)).toEqual(['interviewer', 'participant', 'interviewer', 'participant']);
    expect(q.estimatedTiming).toBe(true);
    expect(() => parseTranscript('[{"speaker": "A"}]')).toThrow(/text/);
  });

  it('finds verbatim quotes, marks near-quotes uncertain and refuses inventions', () => {
    const turns = [{ segment_id: 's1', idx: 0, role: 'participant' as const, speaker: 'P', start_ms: 10_000, end_ms: 20_000, text: 'The  export   button was hidden. I gave up.' }];
    expect(locate(turns, 'the export button was hidden.', null)).toMatchObject({ quote: 'The  export   button was hidden.', uncertain: false, timestamp_ms: 10_000 });
    expect(locate(turns, 'I gave up.', null)).toMatchObject({ uncertain: false, timestamp_ms: expect.any(Number) });
    expect(locate(turns, 'The export button was really hidden', null)).toMatchObject({ uncertain: true });
    expect(locate(turns, 'I love the new dashboard design', null)).toBeNull();
  });
});
