import * as z from 'zod';
import { errorCodes, errorTypes } from '../errors/codes.ts';

export const ErrorBody = z
  .looseObject({
    type: z.enum(errorTypes),
    code: z.enum(Object.keys(errorCodes) as [keyof typeof errorCodes, ...(keyof typeof errorCodes)[]]),
    message: z.string(),
    request_id: z.string().regex(/^req_/),
    docs_url: z.string(),
    current_version: z.int().optional().describe('On stale_version.'),
    retry_after_seconds: z.int().optional().describe('On too_many_requests.'),
    trace_id: z
      .string()
      .optional()
      .describe('On a failed createContext: the trc_ id its Trace is kept under.'),
    remote_code: z
      .string()
      .optional()
      .describe(
        'On sync_remote_key_refused, sync_remote_unsupported and sync_remote_unavailable: the error code the remote answered, when it answered one.',
      ),
  })
  .meta({ id: 'Error', description: 'The one error shape. Unknown extra fields are additive; ignore them.' });
export type ErrorBody = z.infer<typeof ErrorBody>;
