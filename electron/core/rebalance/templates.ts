import { z } from 'zod';
import { Template } from '../../../shared/rebalance.ts';
import { InputError } from '../errors.ts';
import { JsonFile } from '../store/jsonFile.ts';

// Named target templates, per profile (their accounts are that profile's sub-accounts), in one small JSON
// file of the data folder, written whole and atomically. Someone who can write the data folder can change
// it: every read is validated, and a file that fails says what is wrong instead of planning from it. A
// template only fills the form; nothing moves until a plan made from fresh balances is approved.

const File = z.record(z.string().max(64), z.array(Template).max(200));

export class TemplateStore {
  private readonly file: JsonFile<typeof File>;

  constructor(path: string) {
    this.file = new JsonFile(path, File, () => ({}));
  }

  private read(): z.output<typeof File> {
    try {
      return this.file.read();
    } catch (e) {
      throw new InputError([], `The rebalance templates cannot be used: ${(e as Error).message}`);
    }
  }

  list(profile: string): Template[] {
    return this.read()[profile] ?? [];
  }

  /** Saves (or replaces, by name) a template. */
  save(profile: string, t: Template): Template[] {
    const all = this.read();
    const mine = (all[profile] ?? []).filter((x) => x.name !== t.name);
    if (mine.length >= 200) throw new InputError(['name'], 'at most 200 templates per profile: delete one first');
    all[profile] = [...mine, t].sort((a, b) => a.name.localeCompare(b.name));
    this.file.write(all);
    return all[profile];
  }

  remove(profile: string, name: string): Template[] {
    const all = this.read();
    const mine = all[profile] ?? [];
    if (!mine.some((x) => x.name === name)) throw new InputError(['name'], `there is no template named ${JSON.stringify(name)}`);
    all[profile] = mine.filter((x) => x.name !== name);
    this.file.write(all);
    return all[profile];
  }
}
