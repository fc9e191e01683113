/**
 * Inline SVG charts for the HTML report: static markup, no scripts, each chart labelled with a <title>
 * and <desc> for screen readers and a <title> tooltip on every mark. All text passes through escapeHtml.
 */
import { escapeHtml, formatCount, formatDollars, formatShare, svgNumber } from './format.js';
import type { HistogramBin } from './summary-schema.js';

export const COLORS = {
  positive: '#2e6da4',
  negative: '#b03a2e',
  secondary: '#8fb8de',
  axis: '#6b7280',
  grid: '#e5e7eb',
  track: '#eef1f4',
  /** Score bands from worst to best. */
  bands: ['#b03a2e', '#e07b39', '#d4ac0d', '#7dab3c', '#1e8449'],
} as const;

interface ChartLabel {
  /** Unique within the page: the chart's <title> and <desc> ids derive from it. */
  readonly id: string;
  readonly title: string;
  readonly description: string;
}

function svg(label: ChartLabel, width: number, height: number, body: string, className: string): string {
  const id = escapeHtml(label.id);
  return (
    `<svg class="${className}" role="img" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" ` +
    `aria-labelledby="${id}-title ${id}-desc">` +
    `<title id="${id}-title">${escapeHtml(label.title)}</title><desc id="${id}-desc">${escapeHtml(label.description)}</desc>` +
    `${body}</svg>`
  );
}

const rect = (x: number, y: number, width: number, height: number, fill: string, tooltip: string) =>
  `<rect x="${svgNumber(x)}" y="${svgNumber(y)}" width="${svgNumber(Math.max(0, width))}" height="${svgNumber(Math.max(0, height))}" fill="${fill}"><title>${escapeHtml(tooltip)}</title></rect>`;

const text = (
  x: number,
  y: number,
  content: string,
  anchor: 'start' | 'middle' | 'end',
  className = 'tick',
) =>
  `<text x="${svgNumber(x)}" y="${svgNumber(y)}" text-anchor="${anchor}" class="${className}">${escapeHtml(content)}</text>`;

const line = (x1: number, y1: number, x2: number, y2: number, stroke: string) =>
  `<line x1="${svgNumber(x1)}" y1="${svgNumber(y1)}" x2="${svgNumber(x2)}" y2="${svgNumber(y2)}" stroke="${stroke}"/>`;

/** Horizontal gridlines at 0, ½ and the maximum, labelled with `format`. */
function grid(plot: Plot, max: number, format: (value: number) => string): string {
  return [0, 0.5, 1]
    .map((fraction) => {
      const y = plot.bottom - fraction * plot.height;
      return (
        line(plot.left, y, plot.right, y, COLORS.grid) +
        text(plot.left - 6, y + 4, format(max * fraction), 'end')
      );
    })
    .join('');
}

interface Plot {
  readonly left: number;
  readonly right: number;
  readonly top: number;
  readonly bottom: number;
  readonly width: number;
  readonly height: number;
}

function plotArea(
  width: number,
  height: number,
  margin: { left: number; right: number; top: number; bottom: number },
): Plot {
  return {
    left: margin.left,
    right: width - margin.right,
    top: margin.top,
    bottom: height - margin.bottom,
    width: width - margin.left - margin.right,
    height: height - margin.top - margin.bottom,
  };
}

export function binLabel(bin: HistogramBin): string {
  if (bin.from === null) return `under ${formatDollars(bin.to)}`;
  if (bin.to === null) return `${formatDollars(bin.from)} or more`;
  return `${formatDollars(bin.from)} to under ${formatDollars(bin.to)}`;
}

/** PSA histogram: one bar per bin, red where the whole bin is negative. */
export function histogramChart(bins: readonly HistogramBin[], label: ChartLabel): string {
  const width = 720;
  const height = 280;
  const plot = plotArea(width, height, { left: 64, right: 16, top: 16, bottom: 56 });
  const total = bins.reduce((sum, bin) => sum + bin.count, 0);
  const max = Math.max(1, ...bins.map((bin) => bin.count));
  const barWidth = plot.width / Math.max(1, bins.length);
  const labelEvery = Math.ceil(bins.length / 8);
  const openEnded = bins.flatMap((bin, i) => (bin.from === null || bin.to === null ? [i] : []));
  // Open-ended bins are always labelled; regular labels too close to them would overlap.
  const showLabel = (i: number) =>
    openEnded.includes(i) || (i % labelEvery === 0 && openEnded.every((j) => Math.abs(i - j) >= labelEvery));
  const marks = bins.map((bin, i) => {
    const x = plot.left + i * barWidth;
    const barHeight = (bin.count / max) * plot.height;
    const negative = bin.to !== null && bin.to <= 0;
    const tooltip = `${binLabel(bin)}: ${formatCount(bin.count)} households (${formatShare(total === 0 ? null : bin.count / total)})`;
    const bar = rect(
      x + 1,
      plot.bottom - barHeight,
      barWidth - 2,
      barHeight,
      negative ? COLORS.negative : COLORS.positive,
      tooltip,
    );
    const tick = showLabel(i) ? text(x + barWidth / 2, plot.bottom + 16, shortBinLabel(bin), 'middle') : '';
    return bar + tick;
  });
  const axisTitle = text(
    plot.left + plot.width / 2,
    height - 12,
    'Predicted Saving Ability, $ per month',
    'middle',
    'axis-title',
  );
  return svg(
    label,
    width,
    height,
    grid(plot, max, (v) => formatCount(Math.round(v))) + marks.join('') + axisTitle,
    'chart',
  );
}

function shortBinLabel(bin: HistogramBin): string {
  if (bin.from === null) return `<${formatDollars(bin.to)}`;
  if (bin.to === null) return `≥${formatDollars(bin.from)}`;
  return formatDollars(bin.from);
}

export interface BarSeries {
  readonly name: string;
  readonly color: string;
  /** One count per category. */
  readonly counts: readonly number[];
}

/** Vertical bars grouped by category (e.g. score band), heights as a share of each series' total. */
export function groupedBarChart(
  categories: readonly string[],
  series: readonly BarSeries[],
  label: ChartLabel,
): string {
  const width = 720;
  const height = 280;
  const plot = plotArea(width, height, { left: 64, right: 16, top: 24, bottom: 64 });
  const shares = series.map((s) => {
    const total = s.counts.reduce((sum, count) => sum + count, 0);
    return s.counts.map((count) => (total === 0 ? 0 : count / total));
  });
  const max = Math.max(0.01, ...shares.flat());
  const groupWidth = plot.width / Math.max(1, categories.length);
  const barWidth = (groupWidth * 0.8) / Math.max(1, series.length);
  const marks = categories.map((category, c) => {
    const groupLeft = plot.left + c * groupWidth + groupWidth * 0.1;
    const bars = series.map((s, k) => {
      const share = shares[k]?.[c] ?? 0;
      const barHeight = (share / max) * plot.height;
      const x = groupLeft + k * barWidth;
      const tooltip = `${s.name}, ${category}: ${formatCount(s.counts[c] ?? 0)} households (${formatShare(share)})`;
      return (
        rect(x + 1, plot.bottom - barHeight, barWidth - 2, barHeight, s.color, tooltip) +
        text(x + barWidth / 2, plot.bottom - barHeight - 4, formatShare(share), 'middle', 'value')
      );
    });
    const swatch = rect(
      groupLeft,
      plot.bottom + 6,
      groupWidth * 0.8,
      4,
      COLORS.bands[c] ?? COLORS.axis,
      category,
    );
    return bars.join('') + swatch + text(groupLeft + groupWidth * 0.4, plot.bottom + 26, category, 'middle');
  });
  const legend = series
    .map((s, k) => {
      const x = plot.left + k * 180;
      return rect(x, height - 22, 12, 12, s.color, s.name) + text(x + 18, height - 12, s.name, 'start');
    })
    .join('');
  return svg(label, width, height, grid(plot, max, (v) => formatShare(v)) + marks.join('') + legend, 'chart');
}

const STRIP_WIDTH = 160;
const STRIP_HEIGHT = 18;

export interface StripScale {
  readonly min: number;
  readonly max: number;
}

/** A cohort's 10th–90th percentile PSA range with its median, on a scale shared by its table. */
export function rangeStrip(
  range: { readonly p10: number; readonly p50: number; readonly p90: number },
  scale: StripScale,
  label: ChartLabel,
): string {
  const span = Math.max(1, scale.max - scale.min);
  const at = (value: number) => 4 + ((value - scale.min) / span) * (STRIP_WIDTH - 8);
  const zero = scale.min <= 0 && scale.max >= 0 ? line(at(0), 1, at(0), STRIP_HEIGHT - 1, COLORS.axis) : '';
  const tooltip = `10th–90th percentile ${formatDollars(range.p10)} to ${formatDollars(range.p90)}, median ${formatDollars(range.p50)}`;
  const body =
    rect(0, 7, STRIP_WIDTH, 4, COLORS.track, tooltip) +
    zero +
    rect(
      at(range.p10),
      5,
      at(range.p90) - at(range.p10),
      8,
      range.p50 < 0 ? COLORS.negative : COLORS.secondary,
      tooltip,
    ) +
    rect(at(range.p50) - 1.5, 2, 3, 14, '#1f2937', `median ${formatDollars(range.p50)}`);
  return svg(label, STRIP_WIDTH, STRIP_HEIGHT, body, 'strip');
}

export interface Segment {
  readonly name: string;
  readonly count: number;
  readonly color: string;
}

/** Proportions of a whole as one stacked horizontal bar (e.g. a cohort's score bands). */
export function stackedStrip(segments: readonly Segment[], label: ChartLabel): string {
  const total = segments.reduce((sum, s) => sum + s.count, 0);
  let x = 0;
  const marks = segments.map((s) => {
    const width = total === 0 ? 0 : (s.count / total) * STRIP_WIDTH;
    const mark = rect(
      x,
      3,
      width,
      12,
      s.color,
      `${s.name}: ${formatCount(s.count)} (${formatShare(total === 0 ? null : s.count / total)})`,
    );
    x += width;
    return mark;
  });
  return svg(
    label,
    STRIP_WIDTH,
    STRIP_HEIGHT,
    rect(0, 3, STRIP_WIDTH, 12, COLORS.track, label.title) + marks.join(''),
    'strip',
  );
}

/** A share in [0, 1] as a small filled bar. */
export function shareBar(share: number, label: ChartLabel): string {
  const width = 80;
  const body =
    rect(0, 5, width, 8, COLORS.track, label.title) +
    rect(0, 5, share * width, 8, COLORS.negative, `${formatShare(share)}`);
  return svg(label, width, STRIP_HEIGHT, body, 'strip');
}
