import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { BalanceSettings, type AlertView } from '../../../shared/balances.ts';
import { sqliteOptions } from '../../../shared/sqliteBinding.ts';
import { cacheDurability, durably } from './durable.ts';

// One SQLite file per profile (<data>/balances/<profile>.sqlite): total snapshots for the Overview
// chart, alerts (they survive a restart until an operator acknowledges them), the alert settings, and
// the last answer of the Overview's reads (painted at the next start before the exchange answers), and
// the last complete load of the sub-accounts (shown at once on the next start, marked as cached).
// Someone who can write the data folder can edit this file (for example raise a floor, drop an alert or
// change a cached figure): it holds no secret and drives no write, and every value read back is parsed
// again (lastKnown.ts, lastLoad.ts).

export const DEFAULT_BALANCE_SETTINGS: BalanceSettings = { auto_refresh_seconds: 300, default_risk_threshold: '1.3' };

export type AlertKind = AlertView['kind'];
export interface Condition {
  uid: string;
  kind: AlertKind;
  subject: string;
  value: string;
  threshold: string;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS balance_snapshots (at INTEGER NOT NULL, currency TEXT NOT NULL, amount TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS balance_snapshots_by_currency ON balance_snapshots (currency, at);
CREATE TABLE IF NOT EXISTS balance_alerts (
  id INTEGER PRIMARY KEY AUTOINCREMENT, uid TEXT NOT NULL, kind TEXT NOT NULL, subject TEXT NOT NULL,
  value TEXT NOT NULL, threshold TEXT NOT NULL, raised_at INTEGER NOT NULL, cleared_at INTEGER, acknowledged_at INTEGER);
CREATE INDEX IF NOT EXISTS balance_alerts_by_uid ON balance_alerts (uid);
CREATE TABLE IF NOT EXISTS balance_settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS balance_thresholds (uid TEXT PRIMARY KEY, risk_threshold TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS last_known (channel TEXT NOT NULL, request TEXT NOT NULL, at INTEGER NOT NULL, answer TEXT NOT NULL, PRIMARY KEY (channel, request));
CREATE TABLE IF NOT EXISTS balance_floors (uid TEXT NOT NULL, currency TEXT NOT NULL, floor TEXT NOT NULL, PRIMARY KEY (uid, currency));
CREATE TABLE IF NOT EXISTS balance_last_load (id INTEGER PRIMARY KEY CHECK (id = 1), fetched_at INTEGER NOT NULL, load TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS balance_last_view (id INTEGER PRIMARY KEY CHECK (id = 1), fetched_at INTEGER NOT NULL, view TEXT NOT NULL);
`;

/** Snapshots older than this are dropped: the chart shows months, not years of minutes. */
const KEEP_SNAPSHOTS_MS = 400 * 24 * 3600 * 1000;

type Snapshot = { at: number; currency: string; amount: string };
type Floor = { uid: string; currency: string; floor: string };

/** Every statement the store runs, prepared once when it opens: a refresh writes and reads them again and again. */
function statements(db: Database.Database) {
  return {
    addSnapshot: db.prepare<[number, string, string]>('INSERT INTO balance_snapshots (at, currency, amount) VALUES (?, ?, ?)'),
    pruneSnapshots: db.prepare<[number]>('DELETE FROM balance_snapshots WHERE at < ?'),
    snapshots: db.prepare<[string, number, number], Snapshot>(
      'SELECT at, currency, amount FROM balance_snapshots WHERE currency = ? AND at >= ? ORDER BY at DESC LIMIT ?',
    ),
    settings: db.prepare<[], { value: string }>("SELECT value FROM balance_settings WHERE key = 'settings'"),
    saveSettings: db.prepare<[string]>("INSERT OR REPLACE INTO balance_settings (key, value) VALUES ('settings', ?)"),
    thresholds: db.prepare<[], { uid: string; risk_threshold: string }>('SELECT uid, risk_threshold FROM balance_thresholds'),
    deleteThreshold: db.prepare<[string]>('DELETE FROM balance_thresholds WHERE uid = ?'),
    setThreshold: db.prepare<[string, string]>('INSERT OR REPLACE INTO balance_thresholds (uid, risk_threshold) VALUES (?, ?)'),
    floors: db.prepare<[], Floor>('SELECT uid, currency, floor FROM balance_floors ORDER BY uid, currency'),
    floorsOf: db.prepare<[string], Floor>('SELECT uid, currency, floor FROM balance_floors WHERE uid = ? ORDER BY uid, currency'),
    deleteFloor: db.prepare<[string, string]>('DELETE FROM balance_floors WHERE uid = ? AND currency = ?'),
    setFloor: db.prepare<[string, string, string]>('INSERT OR REPLACE INTO balance_floors (uid, currency, floor) VALUES (?, ?, ?)'),
    standingAlerts: db.prepare<[], AlertView>('SELECT * FROM balance_alerts WHERE cleared_at IS NULL'),
    updateAlert: db.prepare<[string, string, number]>('UPDATE balance_alerts SET value = ?, threshold = ? WHERE id = ?'),
    raiseAlert: db.prepare<[string, string, string, string, string, number]>(
      'INSERT INTO balance_alerts (uid, kind, subject, value, threshold, raised_at) VALUES (?, ?, ?, ?, ?, ?)',
    ),
    clearAlert: db.prepare<[number, number]>('UPDATE balance_alerts SET cleared_at = ? WHERE id = ?'),
    alert: db.prepare<[number], AlertView>('SELECT * FROM balance_alerts WHERE id = ?'),
    activeAlerts: db.prepare<[], AlertView>(
      'SELECT * FROM balance_alerts WHERE (cleared_at IS NULL OR acknowledged_at IS NULL) ORDER BY raised_at DESC, id DESC',
    ),
    activeAlertsOf: db.prepare<[string], AlertView>(
      'SELECT * FROM balance_alerts WHERE (cleared_at IS NULL OR acknowledged_at IS NULL) AND uid = ? ORDER BY raised_at DESC, id DESC',
    ),
    remember: db.prepare<[string, string, number, string]>(
      'INSERT OR REPLACE INTO last_known (channel, request, at, answer) VALUES (?, ?, ?, ?)',
    ),
    recall: db.prepare<[string, string], { at: number; answer: string }>(
      'SELECT at, answer FROM last_known WHERE channel = ? AND request = ?',
    ),
    acknowledge: db.prepare<[number, number]>('UPDATE balance_alerts SET acknowledged_at = ? WHERE id = ? AND acknowledged_at IS NULL'),
    // The view kept with a load is read only beside that same load (a crash between the two writes cannot pair them: one transaction).
    lastLoad: db.prepare<[], { fetched_at: unknown; load: unknown; view: unknown }>(
      'SELECT l.fetched_at, l.load, v.view FROM balance_last_load l LEFT JOIN balance_last_view v ON v.id = 1 AND v.fetched_at IS l.fetched_at WHERE l.id = 1',
    ),
    saveLastLoad: db.prepare<[number, string]>('INSERT OR REPLACE INTO balance_last_load (id, fetched_at, load) VALUES (1, ?, ?)'),
    saveLastView: db.prepare<[number, string]>('INSERT OR REPLACE INTO balance_last_view (id, fetched_at, view) VALUES (1, ?, ?)'),
    dropLastView: db.prepare('DELETE FROM balance_last_view'),
  };
}

export class BalanceStore {
  private readonly db: Database.Database;
  private readonly sql: ReturnType<typeof statements>;

  /** `path` null keeps everything in memory (pinned-profile tests and benchmarks). */
  constructor(path: string | null) {
    if (path) mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    this.db = new Database(path ?? ':memory:', sqliteOptions());
    cacheDurability(this.db);
    this.db.exec(SCHEMA);
    this.sql = statements(this.db);
  }

  close(): void {
    this.db.close();
  }

  addSnapshot(at: number, currency: string, amount: string): void {
    this.db.transaction(() => {
      this.sql.addSnapshot.run(at, currency, amount);
      this.sql.pruneSnapshots.run(at - KEEP_SNAPSHOTS_MS);
    })();
  }

  snapshots(currency: string, since: number, limit: number): Snapshot[] {
    return this.sql.snapshots.all(currency, since, limit).reverse();
  }

  /** Keeps a read's latest answer (JSON text) for the next start's first paint. */
  remember(channel: string, request: string, at: number, answer: string): void {
    this.sql.remember.run(channel, request, at, answer);
  }

  /** The kept answer as stored: the caller parses it again, since the folder's owner may have edited it. */
  recall(channel: string, request: string): { at: number; answer: string } | null {
    return this.sql.recall.get(channel, request) ?? null;
  }

  settings(): BalanceSettings {
    const row = this.sql.settings.get();
    if (!row) return DEFAULT_BALANCE_SETTINGS;
    try {
      const parsed = BalanceSettings.safeParse(JSON.parse(row.value));
      return parsed.success ? parsed.data : DEFAULT_BALANCE_SETTINGS;
    } catch {
      return DEFAULT_BALANCE_SETTINGS;
    }
  }

  saveSettings(s: BalanceSettings): void {
    durably(this.db, () => this.sql.saveSettings.run(JSON.stringify(s)));
  }

  thresholds(): Map<string, string> {
    return new Map(this.sql.thresholds.all().map((r) => [r.uid, r.risk_threshold]));
  }

  setThreshold(uid: string, value: string | null): void {
    durably(this.db, () => (value === null ? this.sql.deleteThreshold.run(uid) : this.sql.setThreshold.run(uid, value)));
  }

  floors(uid?: string): Floor[] {
    return uid ? this.sql.floorsOf.all(uid) : this.sql.floors.all();
  }

  setFloor(uid: string, currency: string, floor: string | null): void {
    durably(this.db, () => (floor === null ? this.sql.deleteFloor.run(uid, currency) : this.sql.setFloor.run(uid, currency, floor)));
  }

  /**
   * Brings the alerts in line with what a load found: a new condition raises an alert (returned, to be
   * told), a standing one keeps its alert with the latest value, one that went away is marked cleared.
   * An alert leaves the list only when it is both cleared and acknowledged.
   */
  reconcile(conditions: Condition[], now: number, scope: (uid: string) => boolean): AlertView[] {
    const raised: AlertView[] = [];
    this.db.transaction(() => {
      const key = (a: { uid: string; kind: string; subject: string }) => `${a.uid}|${a.kind}|${a.subject}`;
      const standing = new Map(this.sql.standingAlerts.all().map((a) => [key(a), a]));
      const seen = new Set<string>();
      for (const c of conditions) {
        const k = key(c);
        seen.add(k);
        const a = standing.get(k);
        if (a) {
          this.sql.updateAlert.run(c.value, c.threshold, a.id);
          continue;
        }
        const info = this.sql.raiseAlert.run(c.uid, c.kind, c.subject, c.value, c.threshold, now);
        raised.push(this.alert(Number(info.lastInsertRowid))!);
      }
      for (const [k, a] of standing) if (!seen.has(k) && scope(a.uid)) this.sql.clearAlert.run(now, a.id);
    })();
    return raised;
  }

  alert(id: number): AlertView | null {
    return this.sql.alert.get(id) ?? null;
  }

  /** Alerts still needing an operator: standing, or cleared but not yet acknowledged. */
  activeAlerts(uid?: string): AlertView[] {
    return uid ? this.sql.activeAlertsOf.all(uid) : this.sql.activeAlerts.all();
  }

  acknowledge(id: number, now: number): AlertView | null {
    durably(this.db, () => this.sql.acknowledge.run(now, id));
    return this.alert(id);
  }

  /** The last complete load as written, with its opening view when one was kept (JSON texts unparsed: lastLoad.ts checks them), or null. */
  lastLoad(): { fetched_at: unknown; load: unknown; view: unknown } | null {
    return this.sql.lastLoad.get() ?? null;
  }

  saveLastLoad(fetchedAt: number, load: string, view: string | null = null): void {
    this.db.transaction(() => {
      this.sql.saveLastLoad.run(fetchedAt, load);
      if (view === null) this.sql.dropLastView.run();
      else this.sql.saveLastView.run(fetchedAt, view);
    })();
  }
}
