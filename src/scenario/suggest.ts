// "Did you mean …?": the nearest candidate by Damerau-Levenshtein distance (optimal string alignment).

/** Longer words are never typos of a keyword; skipping them keeps hostile input linear. */
const MAX_WORD_LENGTH = 40;

/** Edit distance with adjacent transpositions, giving up (returning limit+1) once it exceeds `limit`. */
export function editDistance(a: string, b: string, limit = Infinity): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let previous2: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, previous2[j - 2] + 1);
      current.push(value);
      if (value < rowMin) rowMin = value;
    }
    if (rowMin > limit) return limit + 1;
    previous2 = previous;
    previous = current;
  }
  return previous[b.length];
}

/** How many edits still count as a typo for a word of this length. */
function typoBudget(length: number): number {
  return length <= 3 ? 1 : length <= 6 ? 2 : 3;
}

/**
 * The candidate closest to `word` (compared case-insensitively), or undefined when none is close
 * enough to be a plausible typo. Ties go to the earlier candidate.
 */
export function closest(word: string, candidates: Iterable<string>): string | undefined {
  if (word.length === 0 || word.length > MAX_WORD_LENGTH) return undefined;
  const lower = word.toLowerCase();
  let best: string | undefined;
  let bestDistance = typoBudget(word.length) + 1;
  for (const candidate of candidates) {
    const distance = editDistance(lower, candidate.toLowerCase(), bestDistance - 1);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
      if (distance === 0) break;
    }
  }
  return best;
}
