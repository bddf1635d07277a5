/** A paint the page reported (its color's name and when it reached the screen) and a picture the panel drew (its middle's color, when). */
export interface PagePaint {
  color: string;
  at: number;
}
export interface PictureSample {
  at: number;
  rgb: number[];
}

/** How far each channel of a JPEG-compressed picture may be from the color painted (saturated colors sit far apart). */
const CLOSE = 70;
/** A picture drawn this long before the page's report still shows the paint: the report comes two animation frames after it. */
const REPORT_SLACK_MS = 300;
/** The picture must follow the page within this (issue 44: "within a second or two"). */
export const STALL_MS = 2000;

/**
 * For each state the page was in (from one paint to the next, or to `endAt`), how long the panel took to draw a
 * picture of it. A state the picture never showed is a stall when it lasted over STALL_MS; a state shown later
 * than STALL_MS is one too. Short states the picture skipped (a "loading" grey replaced within 2 s) are no stall:
 * the picture had no time to owe them.
 */
export function pictureLags(
  paints: PagePaint[],
  samples: PictureSample[],
  colors: Record<string, number[]>,
  endAt: number,
): { lags: { color: string; lagMs: number | null; lastedMs: number }[]; stalls: number } {
  const ordered = [...paints].sort((a, b) => a.at - b.at);
  const lags = ordered.map((paint, i) => {
    const until = ordered[i + 1]?.at ?? endAt;
    const want = colors[paint.color];
    const shown = samples.find(
      sample => sample.at >= paint.at - REPORT_SLACK_MS && sample.at <= until && want.every((v, c) => Math.abs(v - sample.rgb[c]) <= CLOSE),
    );
    return { color: paint.color, lagMs: shown ? Math.max(0, shown.at - paint.at) : null, lastedMs: until - paint.at };
  });
  const stalls = lags.filter(lag => (lag.lagMs === null ? lag.lastedMs > STALL_MS : lag.lagMs > STALL_MS)).length;
  return { lags, stalls };
}
