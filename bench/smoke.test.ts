import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { postgresMissing } from '../electron/core/team/testkit/postgres.ts';
import { meets } from './targets.ts';

// Every benchmark, run as `npm run bench -- --smoke <name>` runs it (bench/size.ts), must still reach its
// JSON line: a bench that throws, exits non-zero or stops printing its figures fails `npm test` here,
// instead of rotting until someone next runs it at full size. No figure is judged: a smoke size and a
// shared machine make them meaningless.

const ROOT = join(import.meta.dirname, '..');

/** Benches whose JSON line must carry `targets`: the figures docs/benchmarks.md gives targets, each beside its target. */
const TARGETED: Record<string, string[]> = {
  sandbox: ['signed_bare_ratio', 'p99_ms', 'rss_growth_pct'],
  matching: ['orders_per_s', 'p99_us', 'checked_orders', 'http_orders_vs_get'],
  team: ['sent', 'twice', 'tampered_refused', 'approve_to_send_p99_ms', 'notify_p99_ms'],
  ui: ['first_render_ms', 'filter_ms', 'search_ms', 'sort_ms', 'longest_scroll_task_ms', 'longest_task_ms', 'cold_start_ms'],
  'ui-subaccounts': [
    'subaccounts_render_ms',
    'subaccounts_load_ms',
    'subaccounts_requests',
    'subaccounts_cached_paint_ms',
    'subaccounts_cached_paint_new_process_ms',
  ],
  start: ['start_to_url_ms', 'first_paint_ms'],
};

/** Benches that cannot run on this machine, and why: they are skipped with the reason in their name. */
const CANNOT: Record<string, string | null> = { team: postgresMissing() };

/** The figures each bench reports on its last line; a bench registered in run.ts but missing here fails below. */
const FIGURES: Record<string, string[]> = {
  sandbox: ['signed_get_rps', 'bare_rps', 'signed_bare_ratio', 'p50_ms', 'p99_ms', 'rss_min_start_mb', 'rss_min_end_mb', 'rss_peak_mb'],
  client: [
    'refresh_ms',
    'refresh_requests',
    'refresh_min_requests',
    'ccxt_refresh_ms',
    'history_cold_ms',
    'history_cold_requests',
    'history_min_requests',
    'ccxt_history_ms',
    'history_warm_requests',
    'batch_makespan_s',
    'batch_429',
  ],
  matching: ['orders_per_s', 'p99_us', 'book_orders', 'price_levels', 'checked_orders', 'http_orders_per_s', 'signed_get_rps'],
  ui: [
    'rows',
    'first_render_ms',
    'filter_ms',
    'search_ms',
    'sort_ms',
    'open_row_ms',
    'longest_scroll_task_ms',
    'longest_task_ms',
    'cold_start_ms',
    'rss_mb',
  ],
  'ui-subaccounts': [
    'sub_accounts',
    'rows_shown',
    'subaccounts_render_ms',
    'subaccounts_load_ms',
    'subaccounts_cached_paint_ms',
    'subaccounts_cached_paint_new_process_ms',
    'subaccounts_cached_paint_new_process_first_window_ms',
    'subaccounts_requests',
    'subaccounts_min_requests',
  ],
  start: ['start_to_url_ms', 'new_user_first_balance_ms', 'first_paint_ms', 'fresh_figure_ms', 'first_read_ms', 'usable_ms'],
  rebalance: ['accounts', 'transfers', 'planner_ms', 'makespan_s', 'bound_s', 'twice', 'http_429', 'reached'],
  statements: ['accounts', 'warm_s', 'year_s', 'requests', 'min_requests', 'reconciled', 'month_ms'],
  team: ['requests', 'sent', 'twice', 'tampered_refused', 'approve_to_send_p99_ms', 'notify_p99_ms'],
};

function runBench(name: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'bench', 'run.ts'), '--smoke', name], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('every benchmark at its smoke size', () => {
  it('knows the figures of every registered benchmark (run.ts lists them)', async () => {
    const { code, stderr } = await runBench('no-such-bench');
    expect(code).toBe(2);
    const known = /known: (.+)$/m.exec(stderr)?.[1]?.split(', ') ?? [];
    expect(known.sort()).toEqual(Object.keys(FIGURES).sort());
  });

  for (const [name, keys] of Object.entries(FIGURES)) {
    const cannot = CANNOT[name] ?? null;
    it.skipIf(cannot !== null)(`${name} runs to its JSON line${cannot ? ` (skipped: ${cannot})` : ''}`, async () => {
      const { code, stdout, stderr } = await runBench(name);
      const tail = stderr.split('\n').slice(-30).join('\n');
      expect(code, `bench ${name} exited ${code}; its last words:\n${tail}`).toBe(0);
      const last = stdout.trimEnd().split('\n').at(-1) ?? '';
      let figures: unknown;
      expect(() => (figures = JSON.parse(last)), `bench ${name}'s last line is not JSON: ${last}`).not.toThrow();
      expect(figures).toEqual(expect.any(Object));
      expect(Object.keys(figures as object)).toEqual(expect.arrayContaining(keys));
      const want = TARGETED[name];
      if (!want) return;
      // Every target names a figure of the line and reads as an operator and a number.
      const { targets = {}, ...values } = figures as { targets?: Record<string, string> } & Record<string, unknown>;
      expect(Object.keys(targets)).toEqual(expect.arrayContaining(want));
      for (const [key, target] of Object.entries(targets)) {
        expect(values[key], `${name}: target for ${key}, which it does not report`).toEqual(expect.any(Number));
        expect(() => meets(values[key] as number, target)).not.toThrow();
      }
    });
  }
});
