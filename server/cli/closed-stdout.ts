/**
 * A reader that stops early (`mnemo bench … | head -1`) closes stdout under a command. Node then fails
 * a later write with EPIPE, thrown where nothing catches it: the process ended there, with a stack, and
 * before a benchmark removed the temp store it wrote. What is left to print has no reader, so it is
 * dropped, and the command runs to its end and its clean-up as it would have.
 */
export function dropOutputOnceStdoutCloses(stream: NodeJS.WriteStream = process.stdout): void {
  stream.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE' || e.code === 'ERR_STREAM_DESTROYED') return;
    throw e;
  });
}
