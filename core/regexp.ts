/** A text matched literally inside a regular expression ("$1.50" → "\$1\.50"). */
export const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
