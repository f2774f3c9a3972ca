import { describe, expect, it } from 'vitest';
import { LocalExtractor } from '../tools/evidence/local-extractor.ts';
import { REASKED } from '../tools/conductor/reasked.ts';
import type { Turn } from '../tools/evidence/types.ts';

const turn = (idx: number, role: Turn['role'], text: string): Turn => ({ segment_id: `seg_${idx}`, idx, role, speaker: null, start_ms: idx * 5000, end_ms: idx * 5000 + 4000, text });

describe('an answer the interviewer asked again, as one to another question', () => {
  it('is not evidence; the answer after it is', async () => {
    const misread = 'Earlier today the export crashed twice, so I copied the numbers into a spreadsheet by hand instead.';
    const extractor = new LocalExtractor();
    const asked = [turn(0, 'interviewer', 'What did you use to export your report before?'), turn(1, 'participant', misread)];
    // Taken as it stands, it tells of a crash and a workaround.
    expect((await extractor.extract(asked)).length).toBeGreaterThan(0);
    const reasked = [...asked, turn(2, 'interviewer', `${REASKED} Before you had this product, what did you use to export your report?`), turn(3, 'participant', misread)];
    const cards = await extractor.extract(reasked);
    expect(cards.length).toBeGreaterThan(0);
    expect(cards.every((c) => c.segment_id === 'seg_3')).toBe(true);
  });
});

describe('a no to "anything else?"', () => {
  it('is not evidence; a last word with something in it is', async () => {
    const extractor = new LocalExtractor();
    const closing = (said: string) => [turn(0, 'interviewer', 'Is there anything else you would like to tell us?'), turn(1, 'participant', said)];
    for (const no of ["No, that's everything.", 'Nope, I think that covers it.', 'Nothing else, thanks!']) expect(await extractor.extract(closing(no)), no).toEqual([]);
    expect((await extractor.extract(closing('No, but the export crashed twice on me yesterday and I lost my work.'))).length).toBeGreaterThan(0);
  });
});
