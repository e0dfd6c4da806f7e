import { describe, expect, it } from 'vitest';
import { renderMarkdownTable, replaceBetweenMarkers, TABLE_END, TABLE_START } from './docs-table.js';
import { keepsRatio, median, ratiosBetweenBaselines } from './ratios.js';

describe('the suite arithmetic', () => {
  it('takes the middle value of an odd count and the mean of the two middle ones of an even count, whatever the order', () => {
    expect(median([0.7, 0.5, 0.9])).toBe(0.7);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(() => median([])).toThrow(RangeError);
  });

  it('divides each target by the mean of the baselines just before and after it', () => {
    expect(ratiosBetweenBaselines([1000, 800, 1200], [450, 500])).toEqual([0.5, 0.5]);
    expect(() => ratiosBetweenBaselines([1000, 1000], [500, 500])).toThrow(/3 baselines/);
  });

  it('accepts a 1M ratio up to 20 % below the 10k one, and any faster one', () => {
    expect(keepsRatio(0.5, 0.4)).toBe(true);
    expect(keepsRatio(0.5, 0.39)).toBe(false);
    expect(keepsRatio(0.5, 0.9)).toBe(true);
  });
});

describe('the docs table', () => {
  const doc = `# Performance\n\nintro\n\n${TABLE_START}\nold table\n${TABLE_END}\n\n## Other section\nkept\n`;

  it('renders a Markdown table with escaped pipes', () => {
    expect(renderMarkdownTable(['route', 'ratio'], [['a|b', '0.70']])).toBe('| route | ratio |\n| --- | --- |\n| a\\|b | 0.70 |');
  });

  it('replaces only what is between the markers', () => {
    expect(replaceBetweenMarkers(doc, '| new |\n')).toBe(`# Performance\n\nintro\n\n${TABLE_START}\n| new |\n${TABLE_END}\n\n## Other section\nkept\n`);
  });

  it('refuses a document whose markers are missing, reversed or repeated', () => {
    expect(() => replaceBetweenMarkers('# no markers', 'x')).toThrow(/expected one/);
    expect(() => replaceBetweenMarkers(`${TABLE_END}\n${TABLE_START}`, 'x')).toThrow(/expected one/);
    expect(() => replaceBetweenMarkers(`${doc}${TABLE_START}`, 'x')).toThrow(/expected one/);
  });
});
