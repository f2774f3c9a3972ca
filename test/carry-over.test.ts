import { describe, expect, it } from 'vitest';
import { continuedCards } from '../tools/evidence/carry-over.ts';

describe('which new card continues an old one', () => {
  const old = [
    { id: 'a', quote: 'The export button was greyed out.', signal_type: 'struggling_moment' },
    { id: 'b', quote: 'So annoying.', signal_type: 'emotional_response' },
  ];
  it('matches the same words, with more or less around them, the same type first', () => {
    const fresh = [
      { quote: 'Honestly, the export button was greyed out!', signal_type: 'critical_error' },
      { quote: 'the export button was greyed out', signal_type: 'struggling_moment' },
    ];
    expect([...continuedCards(old, fresh)]).toEqual([[1, 'a']]);
    // Another type when nothing of its own type tells it.
    expect([...continuedCards(old, [fresh[0]])]).toEqual([[0, 'a']]);
  });
  it('never matches on two words inside a longer quote, nor one old card twice', () => {
    expect(continuedCards(old, [{ quote: 'It was so annoying, really.', signal_type: 'emotional_response' }]).size).toBe(0);
    expect(continuedCards(old, [{ quote: 'So annoying!', signal_type: 'emotional_response' }])).toEqual(new Map([[0, 'b']]));
    const twice = [
      { quote: 'The export button was greyed out.', signal_type: 'struggling_moment' },
      { quote: 'The export button was greyed out.', signal_type: 'struggling_moment' },
    ];
    expect([...continuedCards(old, twice)]).toEqual([[0, 'a']]);
  });
});
