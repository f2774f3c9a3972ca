import { escapeRegExp } from '../../core/regexp.ts';

const EMAIL = /[^\s@<>()[\]"',;:]+@[^\s@<>()[\]"',;:]+\.[a-z]{2,}/gi;
const words = (terms: string[]) => `(?<![\\p{L}\\p{N}])(?:${terms.map(escapeRegExp).join('|')})(?![\\p{L}\\p{N}])`;
const longestFirst = (terms: Iterable<string>) => [...new Set(terms)].sort((a, b) => b.length - a.length);

/**
 * Removes known participants from public text: e-mail addresses, full names (any case) and
 * the parts of names as people write them (capitalised, so "Will" goes but "will" stays).
 * The marker stays visible, so a reader knows the text was changed.
 */
export function redactor(people: Array<{ name: string | null; email: string | null }>): (text: string) => string {
  const full: string[] = [];
  const parts: string[] = [];
  for (const { name, email } of people) {
    if (email?.trim()) full.push(email.trim());
    const clean = name?.replace(/\s+/g, ' ').trim();
    if (!clean) continue;
    full.push(clean);
    for (const part of clean.split(/[\s,]+/)) {
      if (part.length < 2 || !/\p{L}/u.test(part)) continue;
      parts.push(part, part[0].toUpperCase() + part.slice(1));
    }
  }
  const fullRe = full.length ? new RegExp(words(longestFirst(full)), 'giu') : null;
  const partRe = parts.length ? new RegExp(words(longestFirst(parts)), 'gu') : null;
  return (text) => {
    let out = text.replace(EMAIL, '[email]');
    if (fullRe) out = out.replace(fullRe, '[participant]');
    if (partRe) out = out.replace(partRe, '[participant]');
    return out;
  };
}
