/**
 * uPlot formats numbers with `navigator.language` when its module loads; some browsers report a POSIX tag
 * (`en-US@posix`) that Intl rejects, which would stop the whole workspace from starting. Imported before uPlot.
 */
function valid(tag: string): boolean {
  try {
    new Intl.NumberFormat(tag);
    return true;
  } catch {
    return false;
  }
}
if (typeof navigator !== 'undefined' && !valid(navigator.language)) {
  const cleaned = navigator.language.split(/[@.]/)[0].replace(/_/g, '-');
  Object.defineProperty(navigator, 'language', { value: valid(cleaned) ? cleaned : 'en-US', configurable: true });
}
