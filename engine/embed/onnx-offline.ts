import { isMainThread } from 'node:worker_threads';

/**
 * onnxruntime's Linux and macOS builds (1.30 here) report to Microsoft by default: a persistent device
 * id under ~/.cache/Microsoft/DeveloperTools/.onnxruntime, an offline queue of events beside it, files
 * in the temp dir, uploads to mobile.events.data.microsoft.com. A memory that stays on its owner's
 * machine does not phone home: ORT_DISABLE_TELEMETRY=1 turns all of it off, read by the library from
 * the process's environment when it first initialises.
 */
export const onnxTelemetryVariable = 'ORT_DISABLE_TELEMETRY';

/**
 * Sets the opt-out in the process's environment. Called on the main thread before any thread may load
 * onnxruntime: a worker's `process.env` is its own copy, which a native library never reads, so a
 * worker can only check that its parent did it (its copy is the parent's at its start, as Mnemo starts
 * its workers; one given an `env` of its own could say otherwise).
 */
export function keepOnnxRuntimeOffline(): void {
  if (isMainThread) {
    if (process.env[onnxTelemetryVariable] !== '1') process.env[onnxTelemetryVariable] = '1';
    return;
  }
  if (process.env[onnxTelemetryVariable] !== '1')
    throw new Error(
      `onnxruntime would report to Microsoft: ${onnxTelemetryVariable}=1 must be set on the main thread before this worker starts`,
    );
}
