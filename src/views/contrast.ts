// Text colours that stay readable on the theme's background: WCAG 2 contrast (relative luminance), and a
// theme colour moved toward black or white just far enough to reach AA's 4.5:1. A theme's green for "pass"
// is a chart colour, often too light on white (about 2:1); the panel keeps its hue and darkens it.
// Pure: bundled into the webviews and unit-tested.

export interface Rgba {
  r: number;
  g: number;
  b: number;
  /** 0…1 */
  a: number;
}

/** WCAG AA for normal text. */
export const AA_CONTRAST = 4.5;

/** Parses `rgb(r, g, b)`, `rgba(r, g, b, a)` (as getComputedStyle reports colours) and `#rgb`, `#rrggbb`, `#rrggbbaa`. */
export function parseColour(text: string): Rgba | undefined {
  const value = text.trim().toLowerCase();
  const hex = /^#([0-9a-f]{3,8})$/.exec(value)?.[1];
  if (hex && [3, 6, 8].includes(hex.length)) {
    const full = hex.length === 3 ? [...hex].map((c) => c + c).join('') : hex;
    const byte = (i: number) => parseInt(full.slice(i, i + 2), 16);
    return { r: byte(0), g: byte(2), b: byte(4), a: full.length === 8 ? byte(6) / 255 : 1 };
  }
  const fn = /^rgba?\(\s*([\d.]+)[\s,]+([\d.]+)[\s,]+([\d.]+)(?:[\s,/]+([\d.]+%?))?\s*\)$/.exec(value);
  if (!fn) return undefined;
  const alpha = fn[4] === undefined ? 1 : fn[4].endsWith('%') ? parseFloat(fn[4]) / 100 : parseFloat(fn[4]);
  return { r: Number(fn[1]), g: Number(fn[2]), b: Number(fn[3]), a: alpha };
}

/** A colour with transparency as it shows over an opaque background. */
export function over(colour: Rgba, background: Rgba): Rgba {
  const mix = (c: number, b: number) => c * colour.a + b * (1 - colour.a);
  return { r: mix(colour.r, background.r), g: mix(colour.g, background.g), b: mix(colour.b, background.b), a: 1 };
}

function luminance({ r, g, b }: Rgba): number {
  const channel = (v: number) => {
    const s = v / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

/** WCAG 2 contrast ratio of a text colour on a background (1…21), the text's transparency composed first. */
export function contrastRatio(text: Rgba, background: Rgba): number {
  const [a, b] = [luminance(over(text, background)), luminance(background)];
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}

/** The colour, moved toward black (on a light background) or white (on a dark one) in small steps until it reaches `min`. */
export function readableOn(colour: Rgba, background: Rgba, min = AA_CONTRAST): Rgba {
  // Rounded as CSS will round it, so that the colour set is the colour measured.
  const round = (c: Rgba): Rgba => ({ r: Math.round(c.r), g: Math.round(c.g), b: Math.round(c.b), a: 1 });
  const solid = round(over(colour, background));
  if (contrastRatio(solid, background) >= min) return solid;
  const target = luminance(background) > 0.18 ? 0 : 255;
  for (let step = 1; step <= 40; step++) {
    const t = step / 40;
    const moved = round({ r: solid.r + (target - solid.r) * t, g: solid.g + (target - solid.g) * t, b: solid.b + (target - solid.b) * t, a: 1 });
    if (contrastRatio(moved, background) >= min) return moved;
  }
  return { r: target, g: target, b: target, a: 1 };
}

export function cssColour({ r, g, b }: Rgba): string {
  return `rgb(${Math.round(r)}, ${Math.round(g)}, ${Math.round(b)})`;
}
