/**
 * The nearest of a list of words to a mistyped one (issue 34: "did you mean `--grep`?"): the Damerau-Levenshtein
 * distance (a swap of two neighbours is one edit), within a third of the word's length (at least 1, at most 3).
 */
export function nearest(word: string, candidates: readonly string[]): string | undefined {
  const w = word.toLowerCase();
  const limit = Math.min(3, Math.max(1, Math.floor(w.length / 3)));
  let best: { c: string; d: number } | undefined;
  for (const c of candidates) {
    const d = distance(w, c.toLowerCase());
    if (d <= limit && (!best || d < best.d)) best = { c, d };
  }
  return best?.c;
}

/** The optimal-string-alignment distance: insertions, deletions, substitutions and swaps of two neighbours. */
function distance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 3) return Infinity;
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  }
  return d[a.length]![b.length]!;
}
