import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// The alerted row of the sub-account matrix was a fixed dark red under the light theme's dark text.
// Its colours, resolved from each theme's variables in the real stylesheets, must meet WCAG AA (4.5:1)
// for its text, the links (accent) and the muted notes in it.

const ROOT = join(import.meta.dirname, '..');
const styles = readFileSync(join(ROOT, 'renderer/src/styles.css'), 'utf8');
const balances = readFileSync(join(ROOT, 'renderer/src/features/balances/balances.css'), 'utf8');

function block(css: string, selector: string): Record<string, string> {
  const at = css.indexOf(`${selector} {`);
  if (at < 0) throw new Error(`no rule ${selector}`);
  const body = css.slice(css.indexOf('{', at) + 1, css.indexOf('}', at));
  return Object.fromEntries(
    body
      .split(';')
      .map((d) => d.split(':').map((x) => x.trim()))
      .filter((d) => d.length === 2 && d[0])
      .map(([k, v]) => [k!, v!]),
  );
}

const THEMES = { dark: block(styles, ":root[data-theme='dark']"), light: block(styles, ":root[data-theme='light']") };

function resolve(value: string, vars: Record<string, string>): string {
  const m = /^var\((--[\w-]+)\)$/.exec(value);
  return m ? resolve(vars[m[1]!] ?? '', vars) : value;
}

function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5]
    .map((i) => parseInt(hex.slice(i, i + 2), 16) / 255)
    .map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

describe('the alerted matrix row', () => {
  const row = block(balances, '.matrix-row.alerted');
  for (const [theme, vars] of Object.entries(THEMES)) {
    it(`is readable in the ${theme} theme`, () => {
      const bg = resolve(row.background ?? '', vars);
      const text = resolve(row.color ?? 'var(--text)', vars);
      const link = resolve('var(--accent)', vars);
      const muted = resolve('var(--muted)', vars);
      expect(bg, 'background').toMatch(/^#[0-9a-f]{6}$/i);
      expect(contrast(text, bg), `text ${text} on ${bg}`).toBeGreaterThanOrEqual(4.5);
      expect(contrast(link, bg), `link ${link} on ${bg}`).toBeGreaterThanOrEqual(4.5);
      expect(contrast(muted, bg), `muted ${muted} on ${bg}`).toBeGreaterThanOrEqual(4.5);
    });
  }
});
