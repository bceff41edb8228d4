import Conf from 'conf';
import { Settings } from '../../shared/ipc.ts';

export const DEFAULT_SETTINGS: Settings = { idle_lock_minutes: 15, settle_seconds: 90 };

/**
 * The operator's settings, kept by `conf` in `<data folder>/settings.json` (the file the earlier
 * hand-written store kept, read as it is: its plain JSON is conf's format). Written atomically with
 * mode 0600; a file conf cannot read is reported, never wiped (clearInvalidConfig: false), and one it
 * can read is still checked against the contract's schema, since anyone who can write the data folder
 * can write it.
 */
export class SettingsStore {
  private conf: Conf<Settings> | null = null;
  private memory: Settings = DEFAULT_SETTINGS;

  /** Without a folder the settings live in memory (pinned-profile tests and benchmarks). */
  constructor(private readonly dir?: string) {}

  private file(): Conf<Settings> | null {
    if (!this.dir) return null;
    if (!this.conf) {
      try {
        this.conf = new Conf<Settings>({
          cwd: this.dir,
          configName: 'settings',
          defaults: DEFAULT_SETTINGS,
          clearInvalidConfig: false,
          configFileMode: 0o600,
          accessPropertiesByDotNotation: false,
        });
      } catch (e) {
        throw new Error(
          `${this.dir}/settings.json cannot be read (${(e as Error).message}); it was changed outside the desk. Restore it from a backup or remove it.`,
          { cause: e },
        );
      }
    }
    return this.conf;
  }

  get(): Settings {
    const conf = this.file();
    if (!conf) return this.memory;
    const parsed = Settings.safeParse(conf.store);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new Error(
        `${conf.path} does not have the expected shape (${issue?.path.join('.') || 'file'}: ${issue?.message}); it was changed outside the desk.`,
      );
    }
    return parsed.data;
  }

  set(value: Settings): Settings {
    const checked = Settings.parse(value);
    const conf = this.file();
    if (conf) conf.store = checked;
    else this.memory = checked;
    return checked;
  }
}
