/**
 * What a speak segment says: its speak_text as written, without what is plainly for the
 * interviewer ("[remind them we record the screen]", "Probe: ask if they have 10 minutes.").
 */
const NOTE = /(^|\n|[.?!]\s+)\s*(?:probe|note|notes|nb|moderator|mod note|interviewer|internal|todo)\s*:[^\n]*?(?=[.?!](?:\s|$)|\n|$)[.?!]?/gi;

export function spokenText(text: string): { said: string; left: string[] } {
  const left: string[] = [];
  const said = text
    .replace(/\s*\[[^\]\n]*\]/g, (note) => (left.push(note.trim()), ''))
    .replace(NOTE, (note, start: string) => (left.push(note.slice(start.length).trim()), start))
    .replace(/[ \t]{2,}/g, ' ')
    .replace(/\s+([.,!?])/g, '$1')
    .trim();
  return { said, left };
}
