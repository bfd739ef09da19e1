/**
 * The configured secrets, each with the name a person set it under (the environment variable when
 * it came from there, else the configuration key), and the checks they pass before anything is
 * sent: a valid HTTP header value, and long enough to be redacted and searched for safely.
 */

/** A secret shorter than this cannot be redacted or searched for without matching ordinary text. */
export const MIN_SECRET_LENGTH = 8;

export interface NamedSecret {
  /** Where the person set it, as messages show it: `DBSI_BEARER_TOKEN`, or `"credentials.bearerToken"` when it came
   * from the file. */
  name: string;
  value: string;
}

/**
 * Why a value cannot be sent as an HTTP header field value (RFC 9110 §5.5: visible ASCII,
 * obs-text 0x80–0xFF, space and tab inside), or undefined when it can. undici rejects CR, LF and
 * NUL, and a request it rejected can stall the requests after it.
 */
export function headerValueProblem(v: string): string | undefined {
  const bad = /[\u0000-\u0008\u000a-\u001f\u007f]|[^\u0000-\u00ff]/u.exec(v);
  if (bad) {
    const c = bad[0];
    const code = c.codePointAt(0)!;
    const what =
      c === '\r'
        ? 'a carriage return (CR; a file saved with ' + 'Windows line ends?)'
        : c === '\n'
          ? 'a line feed (LF)'
          : c === '\0'
            ? 'a NUL character'
            : code > 0xff
              ? `the character U+${code.toString(16).toUpperCase().padStart(4, '0')} ` + `(outside Latin-1)`
              : `the control character ` + `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
    return `contains ${what} at position ${bad.index + 1}, which is not allowed in an HTTP header value`;
  }
  if (/^[ \t]|[ \t]$/.test(v)) return 'starts or ends with white space, which HTTP drops from a header value';
  return undefined;
}

/** RFC 9110 token: the characters a header name may have. */
export const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/**
 * Why a secret cannot be used, or undefined: not a valid header value, or too short to redact.
 * A secret that travels only in a body must still pass the header check: it is searched for in
 * every encoding, and a control character in it is a copy-and-paste accident, not a password.
 */
export function secretProblem(v: string): string | undefined {
  const header = headerValueProblem(v);
  if (header) return header;
  if (v.length < MIN_SECRET_LENGTH)
    return (
      `is ${v.length} character${v.length === 1 ? '' : 's'} long: a secret under ${MIN_SECRET_LENGTH} ` +
      `characters cannot be kept out of the reports safely (it would match ordinary text); use the real credential`
    );
  return undefined;
}

/**
 * A secret that is one of the words the suite writes into every report by itself (from the spec,
 * the requirement catalog, the test titles): the reports cannot be proven free of it, since they
 * hold it whether it leaked or not. The first such secret, or undefined.
 */
export function secretInSuiteText(secrets: readonly NamedSecret[], suiteText: string): NamedSecret | undefined {
  return secrets.find((s) => suiteText.includes(s.value));
}
