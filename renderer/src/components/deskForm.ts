import { zodResolver } from '@hookform/resolvers/zod';
import { useCallback } from 'react';
import { get, useForm, type DefaultValues, type FieldValues, type Path } from 'react-hook-form';
import type { z } from 'zod';
import { asSentence } from '../../../shared/sentence.ts';
import { DeskError, operatorMessage } from '../desk/desk.ts';

// The one form layer: react-hook-form checked by a contract zod schema, and the core's refusals put on
// the field their path names (setError), read from the error's structure, never from its sentence.

type Key = string | number;

export interface DeskFormOptions<In extends FieldValues> {
  defaultValues: DefaultValues<In>;
  /** Where the form's values sit inside the request it sends (["write", "input"] for a drafted write). */
  at?: readonly Key[];
  /** Request fields that the form holds under another name ({ address: "new_address" }), or which name, from the values. */
  renamed?: Readonly<Record<string, Path<In>>> | ((values: In) => Readonly<Record<string, Path<In>>>);
  /** When to check: on submit (the default), or as the operator types ('onChange'). */
  mode?: 'onSubmit' | 'onChange';
}

/** The form field a core refusal points at, or null when it names none of this form's fields. */
export function fieldOfError<In extends FieldValues>(
  error: unknown,
  values: In,
  opts: Omit<DeskFormOptions<In>, 'defaultValues'>,
): Path<In> | null {
  if (!(error instanceof DeskError)) return null;
  const at = opts.at ?? [];
  const path = error.path;
  if (path.length <= at.length || at.some((k, i) => path[i] !== k)) return null;
  const rest = path.slice(at.length).join('.');
  const renamed = typeof opts.renamed === 'function' ? opts.renamed(values) : opts.renamed;
  const name = (renamed?.[rest] ?? rest) as Path<In>;
  return get(values, name) === undefined ? null : name;
}

/** A field's message as the operator reads it (zod writes clauses; the core already sends sentences). */
export function fieldMessage(error: { message?: string } | undefined): string | undefined {
  return error?.message ? asSentence(error.message) : undefined;
}

/**
 * react-hook-form over a contract schema, with `putOnField(error)`: a refusal of the core that names one
 * of the form's fields is set on that field and focuses it; it answers whether it did, so the form shows
 * a panel only for the rest (a refusal of the exchange, a lock, a field the form does not hold).
 */
export function useDeskForm<In extends FieldValues, Out>(schema: z.ZodType<Out, In>, opts: DeskFormOptions<In>) {
  const form = useForm<In, unknown, Out>({
    resolver: zodResolver(schema as never) as never,
    defaultValues: opts.defaultValues,
    mode: opts.mode ?? 'onSubmit',
  });
  const { at, renamed } = opts;
  const { getValues, setError } = form;
  const onField = useCallback((error: unknown) => fieldOfError(error, getValues(), { at, renamed }), [getValues, at, renamed]);
  const putOnField = useCallback(
    (error: unknown): boolean => {
      const name = onField(error);
      if (name) setError(name, { type: 'server', message: operatorMessage(error) }, { shouldFocus: true });
      return name !== null;
    },
    [onField, setError],
  );
  return { ...form, onField, putOnField };
}
