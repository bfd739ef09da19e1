/**
 * The spec's sections by heading: the text under each Markdown heading up to the next heading, as
 * written. The document quotes these, so a reader lands on the spec's own sentences.
 */
export function specSections(markdown: string): Map<string, string> {
  const sections = new Map<string, string>();
  let heading: string | undefined;
  let lines: string[] = [];
  const close = () => {
    if (heading !== undefined && !sections.has(heading)) sections.set(heading, lines.join('\n').trim());
  };
  for (const line of markdown.split(/\r?\n/)) {
    const m = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (m) {
      close();
      heading = m[1]!;
      lines = [];
    } else lines.push(line);
  }
  close();
  return sections;
}

/** The text of a section; a heading the spec does not have is a bug of the suite's data. */
export function sectionText(sections: Map<string, string>, heading: string): string {
  const text = sections.get(heading);
  if (text === undefined) throw new Error(`the spec has no section "${heading}"`);
  return text;
}
