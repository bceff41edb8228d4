import { Settings } from '../../shared/ipc.ts';
import { JsonFile } from './store/jsonFile.ts';

export const DEFAULT_SETTINGS: Settings = { idle_lock_minutes: 15, settle_seconds: 30 };

export class SettingsStore {
  private readonly file: JsonFile<typeof Settings> | null;
  private memory: Settings = DEFAULT_SETTINGS;

  /** Without a path the settings live in memory (pinned-profile tests and benchmarks). */
  constructor(path?: string) {
    this.file = path ? new JsonFile(path, Settings, () => DEFAULT_SETTINGS) : null;
  }

  get(): Settings {
    return this.file ? this.file.read() : this.memory;
  }

  set(value: Settings): Settings {
    if (this.file) this.file.write(value);
    else this.memory = value;
    return value;
  }
}
