import { startServer } from '../../server/start-server.ts';
import { runContractSuite } from './suite.ts';

runContractSuite(
  {
    name: 'reference',
    kinds: ['message', 'document', 'event', 'fact'],
    unknownKindCode: 'invalid_request_body',
    sharesMemories: false,
  },
  (o = {}) => startServer({ engine: 'reference', port: 0, rateLimit: 0, ...o }),
);
