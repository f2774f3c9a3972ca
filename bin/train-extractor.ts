/**
 * Trains the offline extractor's sentence model from the labelled transcripts in
 * TRAINING_SETS and writes tools/evidence/sentence-model.json.
 *
 *   npm run train:extractor            cross-validate, then train on everything and write the model
 *   npm run train:extractor -- --cv    cross-validate only
 *
 * The threshold written is the one with the best cross-validated F1.
 */
import fs from 'node:fs';
import { MODEL_FILE, storedModel } from '../tools/evidence/sentence-model.ts';
import { labelledTranscripts, TRAINING_SETS } from '../training/corpus.ts';
import { crossValidate, fit } from '../training/fit.ts';

const pct = (n: number) => `${(n * 100).toFixed(1)} %`;

const transcripts = TRAINING_SETS.flatMap((dir) => labelledTranscripts(dir));
console.log(`${transcripts.length} transcripts, ${transcripts.reduce((n, t) => n + t.labels.length, 0)} labels`);
const scores = await crossValidate(transcripts);
for (const s of scores) console.log(`cross-validated, threshold ${s.threshold}: recall ${pct(s.recall)}, precision ${pct(s.precision)}, F1 ${pct(s.f1)}`);
if (!process.argv.includes('--cv')) {
  const best = scores.reduce((a, b) => (b.f1 > a.f1 ? b : a));
  const data = fit(transcripts, best.threshold);
  fs.writeFileSync(MODEL_FILE, `${JSON.stringify(storedModel(data))}\n`);
  console.log(`wrote ${MODEL_FILE.pathname}: ${Object.keys(data.weights).length} features from ${data.trained_on.sentences} sentences, threshold ${best.threshold}`);
}
