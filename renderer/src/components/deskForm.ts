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

/**
 * Where on the form a core refusal lands: the field its path names, or the field that holds the named
 * place as one text (a policy typed as JSON: "policy.rules.0.max" is said on "policy", with "rules.0.max"
 * as the place inside it); null when it names none of this form's fields.
 */
function placeOfError<In extends FieldValues>(
  error: unknown,
  values: In,
  opts: Omit<DeskFormOptions<In>, 'defaultValues'>,
): { name: Path<In>; inside: string } | null {
  if (!(error instanceof DeskError)) return null;
  const at = opts.at ?? [];
  const path = error.path;
  if (path.length <= at.length || at.some((k, i) => path[i] !== k)) return null;
  const rest = path.slice(at.length).map(String);
  const renamed = typeof opts.renamed === 'function' ? opts.renamed(values) : opts.renamed;
  for (let n = rest.length; n > 0; n -= 1) {
    const key = rest.slice(0, n).join('.');
    const name = (renamed?.[key] ?? key) as Path<In>;
    const value: unknown = get(values, name);
    if (value === undefined) continue;
    // A group of fields (a row, a sub-key) is no field: a refusal inside it that names none of them is the panel's.
    if (n < rest.length && typeof value === 'object' && value !== null) return null;
    return { name, inside: rest.slice(n).join('.') };
  }
  return null;
}

/** The form field a core refusal points at, or null when it names none of this form's fields. */
export function fieldOfError<In extends FieldValues>(
  error: unknown,
  values: In,
  opts: Omit<DeskFormOptions<In>, 'defaultValues'>,
): Path<In> | null {
  return placeOfError(error, values, opts)?.name ?? null;
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
      const place = placeOfError(error, getValues(), { at, renamed });
      if (!place) return false;
      const message = place.inside ? `at ${place.inside}: ${operatorMessage(error)}` : operatorMessage(error);
      setError(place.name, { type: 'server', message }, { shouldFocus: true });
      return true;
    },
    [getValues, at, renamed, setError],
  );
  return { ...form, onField, putOnField };
}
