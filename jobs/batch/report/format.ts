/**
 * Text formatting for the HTML report. The locale is fixed so that a report reads the same wherever it
 * was generated; rounding happens here, at the edge, never in the summary's data.
 */

const HTML_ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Escapes text for HTML/SVG element content and quoted attribute values (cohort values come from input files). */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);

const integerFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
// signDisplay 'negative': a mean of -$0.20 reads "$0", not "-$0".
const dollarFormat = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  maximumFractionDigits: 0,
  signDisplay: 'negative',
});
const scoreFormat = new Intl.NumberFormat('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 });
const percentFormat = new Intl.NumberFormat('en-US', {
  style: 'percent',
  minimumFractionDigits: 1,
  maximumFractionDigits: 1,
});

const orDash =
  (format: (value: number) => string) =>
  (value: number | null): string =>
    value === null ? '–' : format(value);

export const formatCount = orDash((value) => integerFormat.format(value));
export const formatDollars = orDash((value) => dollarFormat.format(value));
export const formatScore = orDash((value) => scoreFormat.format(value));
/** A share in [0, 1] as a percentage with one decimal. */
export const formatShare = orDash((value) => percentFormat.format(value));

/** Numbers written into SVG attributes: short, and without exponent notation. */
export const svgNumber = (value: number): string => String(Math.round(value * 100) / 100);

export const roundTo = (value: number, decimals: number): number => {
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
};
