/** The caller gave up on the call: the doors turn this into their own cancellation, never into a result. */
export class CancelledError extends Error {
  constructor() {
    super('The call was cancelled.');
  }
}
