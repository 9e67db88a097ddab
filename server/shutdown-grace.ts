/**
 * How long in-flight requests may finish when the server is asked to stop, before they are answered
 * 500: long enough for a big import to finish; short enough that a stuck request cannot hold a stop
 * forever. Its own module: `mnemo serve --help` shows it without loading the server.
 */
export const defaultShutdownGraceMs = 30_000;
