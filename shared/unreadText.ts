// Apart from shared/unread.ts (its schemas): the status bar says it from the first paint on.

/** "1 record could not be read", "3 records could not be read". */
export function unreadText(n: number): string {
  return `${n} ${n === 1 ? 'record' : 'records'} could not be read`;
}
