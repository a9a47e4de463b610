// Failures the engine reports to people. Connection failures are worded by src/redis/errors.ts, shared
// with the control connection.

/** A load could not start or had to stop; the message is meant for the user as is. */
export class LoadError extends Error {
  override name = 'LoadError';
}

/** The server refused the TLS handshake (certificate, name, protocol): trying again cannot mend it. */
export class TlsRefusedError extends LoadError {
  override name = 'TlsRefusedError';
}
