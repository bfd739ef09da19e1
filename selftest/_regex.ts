/** One pattern from parts written as regex literals (a long pattern kept within 120 columns), with its flags. */
export const joined = (flags: string, ...parts: RegExp[]): RegExp =>
  new RegExp(parts.map((p) => p.source).join(''), flags);
