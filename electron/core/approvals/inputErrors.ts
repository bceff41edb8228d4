import { InputError } from '../errors.ts';
import { GovernanceError } from '../governance/state.ts';

// What an operator can put right (a governance refusal, a wrong passphrase, a conflict with another desk,
// a bad enrolment code) reaches the window as an InputError, with its message; anything else as it is.

export function asInput(e: unknown): never {
  if (
    e instanceof GovernanceError ||
    (e instanceof Error && e.name === 'OperatorPassphraseError') ||
    (e instanceof Error && e.name === 'StoreConflictError') ||
    (e instanceof Error && e.name === 'EnrolmentCodeError')
  ) {
    throw new InputError([], e.message);
  }
  throw e;
}
