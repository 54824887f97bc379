/**
 * A maintenance command refused what it was asked (wrong arguments, no such target). The admin
 * runner prints the message as one line and exits 2 for usage, 1 otherwise; no stack trace.
 */
export class CommandError extends Error {
  constructor(
    message: string,
    readonly usage = false,
  ) {
    super(message);
    this.name = 'CommandError';
  }
}
