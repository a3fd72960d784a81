// A lead's known fields (name, organization, job title, territory, industry, source, UTM,
// phones, website …) are one line of text: they are shown in lists, headers and email
// lines, where a line break or a control character could make a posted value look like
// something the app wrote (a fake "Open it:" line in a new-lead email). Extra fields keep
// their line breaks: a contact form's message has paragraphs.

// C0 controls (tab and line breaks included), DEL, C1 controls (NEL U+0085 among them),
// and the Unicode line and paragraph separators.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const BREAKS_AND_CONTROLS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g;

/** The text on one line: every run of line breaks and control characters becomes one space. */
export function oneLine(text: string): string {
  return text.replace(BREAKS_AND_CONTROLS, " ");
}
