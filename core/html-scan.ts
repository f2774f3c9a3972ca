import { lazyRequire } from './lazy.ts';

/** htmlparser2 and its entity tables (~1 MiB of heap) load with the first page read. */
const htmlparser2 = lazyRequire<typeof import('htmlparser2')>(import.meta.url, 'htmlparser2');

export interface HtmlTag {
  name: string;
  /** Lower-case names; values with entities decoded; a bare attribute is "". */
  attrs: Record<string, string>;
}

/**
 * Start tags of the named elements and the first `<title>`'s text, read by a real HTML
 * parser: quoted `>` in attributes, comments and script bodies are not mistaken for markup.
 */
export function scanHtml(html: string, names: readonly string[]): { tags: HtmlTag[]; title: string | null } {
  const wanted = new Set(names);
  const tags: HtmlTag[] = [];
  let title: string | null = null;
  let inTitle = false;
  const parser = new (htmlparser2().Parser)(
    {
      onopentag(name, attrs) {
        if (wanted.has(name)) tags.push({ name, attrs });
        if (name === 'title' && title === null) {
          inTitle = true;
          title = '';
        }
      },
      ontext(text) {
        if (inTitle) title += text;
      },
      onclosetag(name) {
        if (name === 'title') inTitle = false;
      },
    },
    { decodeEntities: true, lowerCaseAttributeNames: true, lowerCaseTags: true },
  );
  parser.write(html);
  parser.end();
  return { tags, title };
}
