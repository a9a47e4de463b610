// A verdict's reason in parts for the panel: the bottleneck module writes one long line, "<what held>
// (<figures>): <what it means> — <what to try>" (200–360 characters). The panel shows the claim and the
// meaning as short sentences and the figures as a list apart; a reason of another shape stays whole.
// Pure: bundled into the webview and unit-tested.

export interface WhyParts {
  claim: string;
  /** `busiest thread 92 % busy`, `process 96 % of a core over 1 thread`, … */
  figures: string[];
  meaning: string;
  /** What to try, when the verdict says. */
  advice?: string;
}

const SHAPE = /^([^()]+?) \((.+?)\): (.+?)(?: — (.+))?$/s;

/** Splits at `;` and at `,` outside parentheses. */
function splitFigures(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let current = '';
  for (const char of text) {
    if (char === '(') depth++;
    if (char === ')') depth = Math.max(0, depth - 1);
    if ((char === ';' || char === ',') && depth === 0) {
      out.push(current.trim());
      current = '';
    } else current += char;
  }
  out.push(current.trim());
  return out.filter(Boolean);
}

/** The reason in parts, or undefined when it is not of the verdicts' usual shape (shown whole then). */
export function whyParts(why: string): WhyParts | undefined {
  const match = SHAPE.exec(why.trim());
  if (!match) return undefined;
  const [, claim, figures, meaning, advice] = match;
  return { claim: claim.trim(), figures: splitFigures(figures), meaning: meaning.trim(), ...(advice ? { advice: advice.trim() } : {}) };
}

/** `the disk set the pace` → `The disk set the pace.` */
export function asSentence(text: string): string {
  const trimmed = text.trim();
  return `${trimmed.charAt(0).toUpperCase()}${trimmed.slice(1)}${/[.!?]$/.test(trimmed) ? '' : '.'}`;
}
