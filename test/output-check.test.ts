import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { checkOutput, outputCheckFor, OutputShapeError } from '../core/output-check.ts';

const Card = z.object({ id: z.string(), score: z.number(), note: z.string().nullable().optional() });
const List = z.object({ cards: z.array(Card), total: z.number().int(), next: z.string().default('end') });

describe('output checks', () => {
  it('checks the whole answer in tests and development, and refuses one the parse would change', () => {
    expect(outputCheckFor('test')).toBe('full');
    expect(outputCheckFor('development')).toBe('full');
    const good = { cards: [{ id: 'a', score: 1 }, { id: 'b', score: 2, note: null }], total: 2, next: 'x' };
    expect(checkOutput(List, good, 'full', 'cards.list')).toBe(good);
    // A field the schema does not declare would be stripped silently: refused instead.
    expect(() => checkOutput(List, { ...good, cards: [{ id: 'a', score: 1, secret: 'hash' }] }, 'full', 'cards.list')).toThrow(OutputShapeError);
    // A default filled in by the parse means the handler's own answer was incomplete.
    expect(() => checkOutput(List, { cards: [], total: 0 }, 'full', 'cards.list')).toThrow(/cards.list: the handler's answer differs/);
    // A wrong type anywhere fails.
    expect(() => checkOutput(List, { ...good, cards: [...good.cards, { id: 'c', score: 'high' }] }, 'full', 'cards.list')).toThrow();
  });

  it('checks the first record of each list in production', () => {
    expect(outputCheckFor('production')).toBe('sample');
    const many = { cards: Array.from({ length: 500 }, (_, i) => ({ id: `c${i}`, score: i })), total: 500, next: 'x' };
    expect(checkOutput(List, many, 'sample', 'cards.list')).toBe(many);
    expect(() => checkOutput(List, { ...many, cards: [{ id: 1, score: 0 }, ...many.cards] }, 'sample', 'cards.list')).toThrow();
    expect(() => checkOutput(List, { ...many, total: 'five hundred' }, 'sample', 'cards.list')).toThrow();
    expect(checkOutput(List, { cards: [], total: 0, next: 'end' }, 'sample', 'cards.list')).toEqual({ cards: [], total: 0, next: 'end' });
  });
});
