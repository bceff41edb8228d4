import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import type { z } from 'zod';

/**
 * A small JSON document on disk, validated by its schema when read and written whole: a temporary
 * file, fsync, then rename, so a crash leaves either the old or the new document, never half of one.
 */
export class JsonFile<S extends z.ZodType> {
  constructor(
    private readonly path: string,
    private readonly schema: S,
    private readonly fallback: () => z.output<S>,
  ) {}

  read(): z.output<S> {
    let text: string;
    try {
      text = readFileSync(this.path, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return this.fallback();
      throw new Error(`cannot read ${this.path}: ${(e as Error).message}`, { cause: e });
    }
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      throw new Error(`${this.path} is not valid JSON; it was changed outside the desk. Restore it from a backup or remove it.`);
    }
    const parsed = this.schema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new Error(`${this.path} does not have the expected shape (${issue?.path.join('.')}: ${issue?.message}).`);
    }
    return parsed.data;
  }

  write(value: z.output<S>): void {
    const checked = this.schema.parse(value);
    mkdirSync(dirname(this.path), { recursive: true });
    const tmp = `${this.path}.${process.pid}.tmp`;
    const fd = openSync(tmp, 'w', 0o600);
    try {
      writeSync(fd, `${JSON.stringify(checked, null, 2)}\n`);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, this.path);
  }
}
