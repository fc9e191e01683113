/**
 * The report's index histogram. Its bins are drawn where the applicants are: equal bins of a round width
 * over the 5th to 95th percentile of this file's index (80, break-even, always inside), with the 5 % in each
 * tail in an open-ended bar at either end. Bins over the summary's 1st to 99th percentile put a file's
 * long negative tail (−450 and below) on the axis and half the applicants in one bar. The axis is labelled
 * at bin edges, only as often as the labels fit side by side: a label per bin overlapped.
 */
import { SCORE_SCALE } from './cohort-stats.js';
import type { SortedCounts } from './count-map.js';
import { escapeHtml, formatCount, formatScore, formatShare, svgNumber } from './format.js';
import type { CohortStats } from './summary-schema.js';
import { COLORS } from './svg.js';

/** At most this many inner bins: enough to show a shape, few enough to read each bar. */
const MAX_BINS = 12;
const WIDTH = 720;
const HEIGHT = 300;
/** Room above the plot for the break-even label, clear of the share written above the tallest bar. */
const PLOT = { left: 56, right: WIDTH - 16, top: 40, bottom: HEIGHT - 64 };
/** The least room an axis label needs: "−120" at 11 px is about 30 px wide, plus a gap. */
const MIN_LABEL_SPACING = 44;
const BREAK_EVEN = 80;

export interface IndexBins {
  /** Inner bin edges in points, ascending: `edges.length - 1` bins of one width. */
  readonly edges: readonly number[];
  /** Households below the first edge, in each inner bin, and at or above the last edge. */
  readonly below: number;
  readonly counts: readonly number[];
  readonly above: number;
}

/** The round width (1, 2 or 5 × 10^k points) that covers `span` in at most MAX_BINS bins. */
function roundWidth(span: number): number {
  for (let magnitude = 1; ; magnitude *= 10)
    for (const step of [1, 2, 5]) if (step * magnitude * MAX_BINS >= span) return step * magnitude;
}

/** Bins over the 5th–95th percentile (in points) and the counts of the ×10 index values in them. */
export function indexBins(p5: number, p95: number, sortedX10: SortedCounts): IndexBins {
  const low = Math.min(p5, BREAK_EVEN);
  const high = Math.max(p95, BREAK_EVEN);
  const width = roundWidth(Math.max(1, high - low));
  const start = Math.floor(low / width) * width;
  const bins = Math.floor((high - start) / width) + 1;
  const edges = Array.from({ length: bins + 1 }, (_, i) => start + i * width);
  const counts = new Array<number>(bins).fill(0);
  let below = 0;
  let above = 0;
  for (let i = 0; i < sortedX10.length; i++) {
    const value = sortedX10.values[i]! / SCORE_SCALE;
    const count = sortedX10.counts[i]!;
    const bin = Math.floor((value - start) / width);
    if (bin < 0) below += count;
    else if (bin >= bins) above += count;
    else counts[bin]! += count;
  }
  return { edges, below, counts, above };
}

interface Bar {
  readonly count: number;
  readonly label: string;
}

const barsOf = (bins: IndexBins): Bar[] => {
  const { edges } = bins;
  const inner = bins.counts.map((count, i) => ({
    count,
    label: `${formatScore(edges[i]!)} to under ${formatScore(edges[i + 1]!)}`,
  }));
  return [
    ...(bins.below > 0 ? [{ count: bins.below, label: `under ${formatScore(edges[0]!)}` }] : []),
    ...inner,
    ...(bins.above > 0 ? [{ count: bins.above, label: `${formatScore(edges.at(-1)!)} or more` }] : []),
  ];
};

const text = (x: number, y: number, content: string, anchor: string, className = 'tick') =>
  `<text x="${svgNumber(x)}" y="${svgNumber(y)}" text-anchor="${anchor}" class="${className}">${escapeHtml(content)}</text>`;

const line = (x1: number, y1: number, x2: number, y2: number, stroke: string, dash = '') =>
  `<line x1="${svgNumber(x1)}" y1="${svgNumber(y1)}" x2="${svgNumber(x2)}" y2="${svgNumber(y2)}" stroke="${stroke}"${dash === '' ? '' : ` stroke-dasharray="${dash}"`}/>`;

/** Bars, the share above each, and the horizontal gridlines at 0, ½ and the largest share. */
function barMarks(bars: readonly Bar[], total: number, slot: number): string {
  const max = Math.max(0.01, ...bars.map((bar) => bar.count / total));
  const height = PLOT.bottom - PLOT.top;
  const grid = [0, 0.5, 1].map((f) => {
    const y = PLOT.bottom - f * height;
    return (
      line(PLOT.left, y, PLOT.right, y, COLORS.grid) + text(PLOT.left - 6, y + 4, formatShare(max * f), 'end')
    );
  });
  const marks = bars.map((bar, i) => {
    const share = bar.count / total;
    const h = (share / max) * height;
    const x = PLOT.left + i * slot;
    const tooltip = `index ${bar.label}: ${formatCount(bar.count)} households (${formatShare(share)})`;
    const value =
      slot >= MIN_LABEL_SPACING
        ? text(x + slot / 2, PLOT.bottom - h - 4, formatShare(share), 'middle', 'value')
        : '';
    return `<rect class="bar" x="${svgNumber(x + 1)}" y="${svgNumber(PLOT.bottom - h)}" width="${svgNumber(slot - 2)}" height="${svgNumber(h)}" fill="${COLORS.positive}"><title>${escapeHtml(tooltip)}</title></rect>${value}`;
  });
  return grid.join('') + marks.join('');
}

/** Edge labels under the bars, every `step`-th edge so that no two overlap; the tails named below them. */
function axisMarks(bins: IndexBins, slot: number, first: number): string {
  const step = Math.max(1, Math.ceil(MIN_LABEL_SPACING / slot));
  const labels = bins.edges
    .map((edge, i) => ({ edge, x: PLOT.left + (first + i) * slot, i }))
    .filter(({ i }) => i % step === 0)
    .map(
      ({ edge, x }) =>
        line(x, PLOT.bottom, x, PLOT.bottom + 4, COLORS.axis) +
        text(x, PLOT.bottom + 16, formatScore(edge), 'middle'),
    );
  const tails = [
    ...(bins.below > 0 ? [text(PLOT.left + slot / 2, PLOT.bottom + 32, 'lower', 'middle')] : []),
    ...(bins.above > 0 ? [text(PLOT.right - slot / 2, PLOT.bottom + 32, 'higher', 'middle')] : []),
  ];
  return (
    labels.join('') +
    tails.join('') +
    text((PLOT.left + PLOT.right) / 2, HEIGHT - 8, 'Index (points; 80 is break-even)', 'middle', 'axis-title')
  );
}

/** The dashed break-even line at 80, labelled at the top. */
function breakEvenMark(bins: IndexBins, slot: number, first: number): string {
  const { edges } = bins;
  const width = edges[1]! - edges[0]!;
  const x = PLOT.left + (first + (BREAK_EVEN - edges[0]!) / width) * slot;
  return (
    line(x, 16, x, PLOT.bottom, COLORS.negative, '4 3') + text(x + 4, 12, 'break-even (80)', 'start', 'value')
  );
}

export function indexHistogram(overall: CohortStats): string {
  const { percentiles } = overall.index;
  if (percentiles === null) return '<p>No rows were scored.</p>';
  const bins = indexBins(percentiles.p5, percentiles.p95, overall.distribution.index_x10);
  const bars = barsOf(bins);
  const slot = (PLOT.right - PLOT.left) / bars.length;
  const first = bins.below > 0 ? 1 : 0;
  const body =
    barMarks(bars, overall.rows, slot) + axisMarks(bins, slot, first) + breakEvenMark(bins, slot, first);
  const description = `Households by index, in bins of ${formatScore(bins.edges[1]! - bins.edges[0]!)} points over this file's 5th to 95th percentile; the first and last bars hold the households beyond. ${formatCount(overall.index.below_80_count)} households are under 80.`;
  return (
    `<svg class="chart" id="index-histogram" role="img" viewBox="0 0 ${WIDTH} ${HEIGHT}" width="${WIDTH}" height="${HEIGHT}" aria-labelledby="index-histogram-title index-histogram-desc">` +
    `<title id="index-histogram-title">Distribution of the index</title><desc id="index-histogram-desc">${escapeHtml(description)}</desc>${body}</svg>`
  );
}
