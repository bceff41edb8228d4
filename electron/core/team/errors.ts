// What goes wrong with a team store, in words for the operator. Either way the desk holds no governance
// state meanwhile, so nothing governed is sent.

/** A row that does not verify: written, edited, moved or removed by someone without an operator's or a desk's key. */
export class TeamTamperError extends Error {
  constructor(
    readonly seq: number,
    /** The reason alone, for Verify's report. */
    readonly why: string,
  ) {
    super(`Team store record ${seq} is refused as tampering: ${why}. Nothing it would authorise is sent.`);
    this.name = 'TeamTamperError';
  }
}

/** The database cannot be reached (or answered with an error): nothing governed is sent until it can. */
export class TeamStoreOfflineError extends Error {
  constructor(reason: string) {
    super(`The team store is offline (${reason}). Nothing governed is sent until it is back.`);
    this.name = 'TeamStoreOfflineError';
  }
}
