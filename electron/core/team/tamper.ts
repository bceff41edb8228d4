// A row of the team store that does not verify: written, edited, moved or removed by someone without an
// operator's or a desk's key. The operator is told which record; nothing governed is sent meanwhile.

export class TeamTamperError extends Error {
  constructor(
    readonly seq: number,
    why: string,
  ) {
    super(`Team store record ${seq} is refused as tampering: ${why}. Nothing it would authorise is sent.`);
    this.name = 'TeamTamperError';
  }
}
