/**
 * A failure's heading names the operation its test drove, as the spec numbers and names it ("5. Create a user
 * disclosure acceptance record › answers 204 with no body"): in the console (area › operation › title), JUnit (the
 * classname, without its dot), Allure (the result's name) and the Markdown summary (issue 34).
 */
export function failureHeading(c: { operation: string; title: string }): string {
  return `${c.operation} › ${c.title}`;
}

/** The outcomes shown as failures: failed, could not test, a suite error, and a waived failure (still failed). */
export function isFailureLike(outcome: string): boolean {
  return outcome === 'failed' || outcome === 'could-not-test' || outcome === 'error' || outcome === 'waived';
}
