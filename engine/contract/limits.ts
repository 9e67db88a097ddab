/**
 * Size limits shared by the server and the UI (no schema library here, so the renderer can import it).
 * importFiles takes larger bodies than the other operations: a batch of export files as base64.
 */
/** 32 MiB: about 24 MiB of files once base64-encoded; larger exports go through `mnemo import`. */
export const importMaxBodyBytes = 32 * 1024 * 1024;
