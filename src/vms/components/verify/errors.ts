// The one error type verification throws. Its message is avalanchego's error text, verbatim:
// issueTx returns it unchanged as the JSON-RPC error message, so every character is API.

export class VerifyError extends Error {
  override name = 'VerifyError';
}

export function fail(message: string): never {
  throw new VerifyError(message);
}

/** fmt.Errorf("<prefix>: %w", err) for a VerifyError; anything else is a bug and passes through. */
export function wrapped<T>(prefix: string, run: () => T): T {
  try {
    return run();
  } catch (err) {
    if (err instanceof VerifyError) throw new VerifyError(`${prefix}: ${err.message}`);
    throw err;
  }
}

/** database.ErrNotFound: what a missing UTXO, tx or atomic UTXO reads as. */
export const NOT_FOUND = 'not found';
