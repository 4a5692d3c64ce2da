import { describe, expect, it } from 'vitest';
import { csvCell } from './UserExporter.js';

describe('csvCell', () => {
  it('leaves plain values alone', () => {
    expect(csvCell('ada@acme.test')).toBe('ada@acme.test');
    expect(csvCell(null)).toBe('');
  });

  it('quotes commas, quotes and newlines (RFC 4180)', () => {
    expect(csvCell('Lovelace, Ada')).toBe('"Lovelace, Ada"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('line1\nline2')).toBe('"line1\nline2"');
  });

  it('neutralises formula injection', () => {
    expect(csvCell('=HYPERLINK("http://evil.test")')).toBe(`"'=HYPERLINK(""http://evil.test"")"`);
    expect(csvCell('+31 20 123 4567')).toBe(`"'+31 20 123 4567"`);
    expect(csvCell('@admin')).toBe(`"'@admin"`);
  });
});
