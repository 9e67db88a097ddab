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
  })
  .meta({ id: 'Error', description: 'The one error shape. Unknown extra fields are additive; ignore them.' });
export type ErrorBody = z.infer<typeof ErrorBody>;
