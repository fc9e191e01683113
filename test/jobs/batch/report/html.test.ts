import { describe, expect, it } from 'vitest';
import { renderReport } from '../../../../jobs/batch/report/html.js';
import { SummaryBuilder } from '../../../../jobs/batch/report/summary.js';
import { META, row } from './fixtures.js';

const HOSTILE = [
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  "' onmouseover='alert(1)",
  '</title><svg onload=alert(1)>',
  '&amp; already-escaped',
];

function hostileReport(): string {
  const builder = new SummaryBuilder({ groupBy: ['<b>segment</b>'] });
  HOSTILE.forEach((value, i) => {
    builder.addScored(row({ psa: i * 100 - 150, state: value, groups: { '<b>segment</b>': value } }));
    builder.addRejected(`/demographics/zip: ${value}`);
  });
  return renderReport(builder.finish({ ...META, input: '/data/<evil>.csv', modelVersion: '"model"' }));
}

describe('renderReport', () => {
  const html = hostileReport();

  it('when cohort values, reasons and names contain markup, escapes every one of them', () => {
    // The attack text may remain as text; what must never appear is a raw tag or an unescaped quote.
    expect(html).not.toMatch(/<script|<img|<svg onload|' onmouseover/i);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('&quot;&gt;&lt;img src=x onerror=alert(1)&gt;');
    expect(html).toContain('&#39; onmouseover=&#39;alert(1)');
    expect(html).toContain('&amp;amp; already-escaped');
    expect(html).toContain('By &lt;b&gt;segment&lt;/b&gt; (--group-by)');
    expect(html).toContain('&lt;evil&gt;.csv');
  });

  it('is self-contained: no scripts, no external resources, and a policy that forbids both', () => {
    expect(html).not.toMatch(/https?:\/\//);
    expect(html).not.toMatch(/<(script|link|iframe|object|embed|img)\b/i);
    expect(html).toContain(`content="default-src 'none'; style-src 'unsafe-inline'"`);
  });

  it('labels every chart for assistive technology', () => {
    const charts = html.match(/<svg [^>]*>/g) ?? [];
    expect(charts.length).toBeGreaterThan(2);
    for (const tag of charts) expect(tag).toMatch(/role="img" .*aria-labelledby="[^"]+-title [^"]+-desc"/);
  });

  it('when nothing was scored, still renders the counts and says so', () => {
    const builder = new SummaryBuilder({ groupBy: [] });
    builder.addRejected('bad row');
    const empty = renderReport(builder.finish(META));
    expect(empty).toContain('No rows were scored.');
    expect(empty).toContain('bad row');
  });
});
